import Foundation
import Testing

/// orientd serving its socket from a scratch directory, fed by a replayed trace.
final class ServedDaemon {
  let directory: String
  let socket: String
  let statePath: String
  let process: TestProcess

  /// Starts orientd holding `orientation` (settle 0) with `extra` arguments, and waits for its socket.
  init(
    holding orientation: (Double, Double, Double) = (0, -1, 0), extra: [String] = [], directory: String? = nil
  )
    throws
  {
    let directory = try directory ?? TestPaths.scratchDirectory()
    var trace = TraceBuilder(stepMilliseconds: 10)
    trace.add(orientation.0, orientation.1, orientation.2)
    let tracePath = directory + "/hold.trace"
    try (trace.lines.joined(separator: "\n") + "\n").write(
      toFile: tracePath, atomically: true, encoding: .utf8)
    self.directory = directory
    socket = directory + "/s"
    statePath = directory + "/state"
    process = try TestProcess(
      [TestPaths.orientd, "--replay", tracePath, "--settle", "0", "--socket", socket, "--state", statePath]
        + extra)
    try #require(process.waitFor("listening on", inStderr: true), "orientd did not start: \(process.stderr)")
    // The replay delivers its one sample right after listening starts.
    try #require(process.waitFor("info: device", inStderr: true), "no device orientation: \(process.stderr)")
  }

  /// Runs orientctl against this daemon.
  func orientctl(_ arguments: String...) throws -> (status: Int32, stdout: String, stderr: String) {
    try runToCompletion([TestPaths.orientctl, "--socket", socket] + arguments)
  }

  /// Stops orientd with SIGTERM and returns its exit status.
  func stop() -> Int32? {
    process.signal(SIGTERM)
    return process.waitForExit(timeout: 10)
  }
}

/// A raw socket client for tests that need exact control over bytes and timing.
final class TestClient {
  let descriptor: Int32
  private var buffer: [UInt8] = []
  private(set) var closedByServer = false

  /// Connects to `path`.
  init(path: String) throws {
    let fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue | SOCK_CLOEXEC.rawValue), 0)
    descriptor = fd
    let result = withUnixAddress(path) { connect(fd, $0, $1) }
    guard result == 0 else {
      let code = errno
      close(descriptor)
      throw POSIXError(POSIXErrorCode(rawValue: code) ?? .EIO)
    }
  }

  deinit { close(descriptor) }

  /// Sends raw bytes.
  func send(bytes: [UInt8]) {
    var offset = 0
    while offset < bytes.count {
      let written = bytes.withUnsafeBytes {
        Glibc.send(descriptor, $0.baseAddress! + offset, $0.count - offset, Int32(MSG_NOSIGNAL))
      }
      guard written > 0 else { return }
      offset += written
    }
  }

  /// Sends text as it is (add the newline yourself).
  func send(_ text: String) { send(bytes: Array(text.utf8)) }

  /// The next line, or nil on timeout or when the server closed the connection.
  func readLine(timeout: Double = 5) -> String? {
    let deadline = Date().addingTimeInterval(timeout)
    while true {
      if let newline = buffer.firstIndex(of: 0x0A) {
        let line = String(decoding: buffer[..<newline], as: UTF8.self)
        buffer.removeFirst(newline + 1)
        return line
      }
      let remaining = deadline.timeIntervalSinceNow
      guard remaining > 0, !closedByServer else { return nil }
      var watched = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
      guard poll(&watched, 1, Int32(remaining * 1000) + 1) > 0 else { return nil }
      var chunk = [UInt8](repeating: 0, count: 65536)
      let count = chunk.withUnsafeMutableBytes { recv(descriptor, $0.baseAddress, $0.count, 0) }
      if count <= 0 {
        closedByServer = true
        return nil
      }
      buffer += chunk[0..<count]
    }
  }

  /// Reads `count` lines (fewer on timeout).
  func readLines(_ count: Int, timeout: Double = 5) -> [String] {
    var lines: [String] = []
    while lines.count < count, let line = readLine(timeout: timeout) { lines.append(line) }
    return lines
  }

  /// Reads lines up to and including `last`.
  func readLines(through last: String, timeout: Double = 5) -> [String] {
    var lines: [String] = []
    while let line = readLine(timeout: timeout) {
      lines.append(line)
      if line == last { break }
    }
    return lines
  }

  /// Whether the server has closed the connection (waits up to `timeout` for it).
  func waitForClose(timeout: Double = 5) -> Bool {
    let deadline = Date().addingTimeInterval(timeout)
    while !closedByServer, Date() < deadline { _ = readLine(timeout: 0.05) }
    return closedByServer
  }
}

/// The five state lines a client gets on connect for a device held `normal`, unlocked.
let normalSnapshot = [
  "sensor online", "device normal", "orientation normal", "lock off",
  "allowed normal,left-up,bottom-up,right-up",
]

/// A socat client whose stdin is a FIFO the test writes to, like a person at a terminal.
final class SocatClient {
  let process: TestProcess
  private let input: FileHandle

  init(socket: String) throws {
    let socat = try #require(TestPaths.which("socat"), "socat is missing: apt-get install socat")
    let fifo = try TestPaths.scratchDirectory() + "/in"
    guard mkfifo(fifo, 0o600) == 0 else { throw POSIXError(.EIO) }
    // The child opens the FIFO read-write so it never blocks waiting for a writer.
    process = try TestProcess([socat, "-", "UNIX-CONNECT:\(socket)"], stdinPath: fifo, stdinFlags: O_RDWR)
    input = try #require(FileHandle(forWritingAtPath: fifo))
  }

  /// Types a line.
  func send(_ line: String) { input.write(Data((line + "\n").utf8)) }
}
