import OrientCore
import OrientSystem

/// A scratch directory for one measurement, removed with everything in it when dropped.
final class ScratchDirectory {
  let path: String

  init() throws(SystemError) { path = try FileSystem.makeTemporaryDirectory(prefix: "/tmp/orientd-bench.") }

  deinit { try? FileSystem.removeTree(path) }
}

/// An orientd started for measuring, serving a socket in a scratch directory.
final class DaemonProcess {
  let pid: ProcessID
  let socket: String
  private let scratch: ScratchDirectory

  /// Starts `binary` holding the normal orientation from a one-sample trace, with `extra`
  /// options, and waits until its socket answers.
  init(binary: String, extra: [String]) throws {
    scratch = try ScratchDirectory()
    let directory = scratch.path
    socket = directory + "/s"
    let trace = directory + "/hold.trace"
    try FileDescriptor.open(trace, .writeOnly, options: [.create, .truncate]).writeAll(
      "# orientd-trace 1\n0 0 -1 0\n")
    var spawn = Spawn(
      [
        binary, "--replay", trace, "--settle", "0", "--socket", socket, "--state", directory + "/state",
        "--config", directory + "/none.conf",
      ] + extra)
    spawn.standardOutput = .file(directory + "/stdout", .writeOnly, [.create, .truncate])
    spawn.standardError = .file(directory + "/stderr", .writeOnly, [.create, .truncate])
    // An empty config, so the machine's /etc/orientd/orientd.conf plays no part.
    try FileDescriptor.open(directory + "/none.conf", .writeOnly, options: [.create, .truncate]).writeAll("")
    pid = try spawn.start()
    // Serving means the snapshot arrives, device and orientation included.
    for _ in 0..<500 {
      if let client = try? BenchClient(path: socket), client.readGreeting() { return }
      pause(for: .milliseconds(10))
    }
    stop()
    throw SystemError("orientd did not serve \(socket)", code: .timedOut)
  }

  /// What the daemon costs in memory now.
  var memory: ProcessMemory { ProcessMemory(pid: pid) }

  /// Stops the daemon and waits for it.
  func stop() {
    try? pid.send(.terminate)
    _ = try? pid.wait()
  }
}

/// A blocking socket client that reads whole lines.
final class BenchClient {
  let socket: FileDescriptor
  private var splitter = LineSplitter(limit: 65536)

  init(path: String) throws(SystemError) {
    socket = try UnixSocket.connect(path: path)
  }

  func send(_ text: String) { try? socket.sendAll(text) }

  /// Reads what is available (blocking for the first bytes) and returns the complete lines.
  func readAvailable() -> [String] {
    var chunk = [UInt8](repeating: 0, count: 8192)
    guard let count = try? chunk.withUnsafeMutableBytes({ try socket.receive(into: $0) }), count > 0 else {
      return []
    }
    return chunk.withUnsafeBytes { splitter.append(UnsafeRawBufferPointer(rebasing: $0[0..<count])) }
      .compactMap {
        if case .line(let bytes) = $0 { return String(decoding: bytes, as: UTF8.self) }
        return nil
      }
  }

  /// The lines of the snapshot a new client gets: sensor, device, orientation, lock,
  /// allowed and mode.
  static let greetingLines = 6

  /// Reads the snapshot a new client gets; false if the connection ended first.
  @discardableResult
  func readGreeting() -> Bool { readLines(Self.greetingLines).count >= Self.greetingLines }

  /// Reads until at least `count` lines have arrived (all of a chunk's complete lines are
  /// kept), or the connection ends.
  func readLines(_ count: Int) -> [String] {
    var lines: [String] = []
    while lines.count < count {
      let more = readAvailable()
      if more.isEmpty { break }
      lines += more
    }
    return lines
  }
}
