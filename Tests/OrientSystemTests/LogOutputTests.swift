import Glibc
import Synchronization
import Testing

@testable import OrientSystem

/// A pipe or socket pair standing for stderr: the log writes to `writer`, the test reads `reader`.
private final class StandIn {
  let reader: FileDescriptor
  let writer: FileDescriptor

  private init(_ ends: [Int32]) {
    reader = FileDescriptor(adopting: ends[0])
    writer = FileDescriptor(adopting: ends[1])
  }

  static func pipe() throws -> StandIn {
    var ends: [Int32] = [0, 0]
    try #require(Glibc.pipe(&ends) == 0)
    let standIn = StandIn(ends)
    try standIn.reader.setCloseOnExec()
    try standIn.writer.setCloseOnExec()
    return standIn
  }

  static func socketPair() throws -> StandIn {
    var ends: [Int32] = [0, 0]
    try #require(socketpair(AF_UNIX, Int32(SOCK_STREAM.rawValue | SOCK_CLOEXEC.rawValue), 0, &ends) == 0)
    return StandIn(ends)
  }

  /// Whether the writer's open file description, shared with whoever else has it, is non-blocking.
  var writerIsNonBlocking: Bool { fcntl(writer.rawValue, F_GETFL) & O_NONBLOCK != 0 }

  /// Everything waiting to be read.
  func drain() -> String {
    var text = ""
    var chunk = [UInt8](repeating: 0, count: 65536)
    while true {
      var entry = pollfd(fd: reader.rawValue, events: Int16(POLLIN), revents: 0)
      guard poll(&entry, 1, 0) == 1 else { return text }
      let count = read(reader.rawValue, &chunk, chunk.count)
      guard count > 0 else { return text }
      text += String(decoding: chunk[0..<count], as: UTF8.self)
    }
  }
}

/// The log's output, handed to a thread of its own for the writes.
private final class Output: @unchecked Sendable {
  var output: LogOutput

  init(_ output: consuming LogOutput) { self.output = output }

  /// Writes `lines` log lines on another thread, so a write that waits fails the test instead
  /// of hanging it; whether they were all written (or dropped) within 30 s.
  func write(lines: Int, text: @escaping @Sendable (Int) -> String) throws -> Bool {
    let thread = try WorkerThread(name: "log-writer") {
      for index in 0..<lines {
        self.output.write(text(index), lines: 1) { "note: \($0) dropped\n" }
      }
    }
    return thread.join(within: .seconds(30))
  }
}

/// A log line of about the size orientd writes.
private func line(_ index: Int) -> String {
  "orientd: debug: sample \(index) 0.000 -1.000 0.000 proposes normal\n"
}

@Suite("A log that never waits for stderr")
struct LogOutputTests {
  @Test("On a pipe nobody reads, lines are dropped and counted, and the shared description stays blocking")
  func pipeNobodyReads() throws {
    let standIn = try StandIn.pipe()
    let output = Output(
      LogOutput(nonBlockingFor: try standIn.writer.status(), descriptor: standIn.writer.rawValue))
    // Far more than the pipe holds (64 KiB).
    #expect(try output.write(lines: 5_000, text: line), "a log write waited for the pipe")
    #expect(!standIn.writerIsNonBlocking, "O_NONBLOCK was set on a description others share")
    let first = standIn.drain()
    #expect(first.hasPrefix(line(0)))
    #expect(!first.contains("note:"))
    #expect(try output.write(lines: 1) { _ in "after\n" })
    let kept = first.split(separator: "\n").count
    #expect(standIn.drain() == "note: \(5_000 - kept) dropped\nafter\n")
  }

  @Test("On a socket nobody reads (the journal's stream), lines are dropped and counted")
  func socketNobodyReads() throws {
    let standIn = try StandIn.socketPair()
    let output = Output(
      LogOutput(nonBlockingFor: try standIn.writer.status(), descriptor: standIn.writer.rawValue))
    #expect(try output.write(lines: 50_000, text: line), "a log write waited for the socket")
    #expect(!standIn.writerIsNonBlocking)
    // The socket took part of a line at most: the rest comes before anything else, so no line
    // is cut in two.
    var text = standIn.drain()
    #expect(try output.write(lines: 1) { _ in "after\n" })
    text += standIn.drain()
    let lines = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
    #expect(lines.suffix(3).first?.hasPrefix("note: ") == true)
    #expect(lines.suffix(2) == ["after", ""])
    #expect(lines.dropLast(3).allSatisfy { $0 + "\n" == line(Int($0.split(separator: " ")[3])!) })
    let dropped = Int(lines.suffix(3).first!.split(separator: " ")[1])!
    #expect(dropped + lines.count - 3 == 50_000)
  }

  @Test("Where a pipe cannot be reopened, a write waits for nothing either")
  func pipeNotReopened() throws {
    let standIn = try StandIn.pipe()
    let output = Output(
      LogOutput(
        nonBlockingFor: try standIn.writer.status(), descriptor: standIn.writer.rawValue, reopening: false))
    #expect(try output.write(lines: 5_000, text: line), "a log write waited for the pipe")
    #expect(!standIn.writerIsNonBlocking)
    let first = standIn.drain()
    #expect(first.hasPrefix(line(0)))
    #expect(try output.write(lines: 1) { _ in "after\n" })
    let kept = first.split(separator: "\n").count
    #expect(standIn.drain() == "note: \(5_000 - kept) dropped\nafter\n")
  }
}
