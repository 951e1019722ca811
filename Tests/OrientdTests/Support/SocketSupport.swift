import Foundation
import OrientCore
import Testing

/// orientd serving its socket from the scratch directory, fed by a replayed trace.
final class ServedDaemon {
  let directory: String
  let socket: String
  let statePath: String
  let process: TestProcess

  /// Starts orientd holding `orientation` (settle 0) with `extra` arguments, and waits until it
  /// serves the orientation. `directory` (in the scratch directory) holds the socket and
  /// state file; a new one by default. `launcher` runs before orientd (for example `unshare`).
  init(
    holding orientation: (Double, Double, Double) = (0, -1, 0), extra: [String] = [],
    directory: String? = nil, statePath: String? = nil,
    launcher: [String] = []
  ) throws {
    let scratch = try Scratch.current()
    let directory = try directory ?? scratch.makeDirectory("daemon")
    var trace = TraceBuilder(stepMilliseconds: 10)
    trace.add(orientation.0, orientation.1, orientation.2)
    let tracePath = directory + "/hold.trace"
    try (trace.lines.joined(separator: "\n") + "\n").write(
      toFile: tracePath, atomically: true, encoding: .utf8)
    self.directory = directory
    socket = directory + "/s"
    self.statePath = statePath ?? directory + "/state"
    let arguments = try TestPaths.isolated(
      orientdArguments: [
        "--replay", tracePath, "--settle", "0", "--socket", socket, "--state", self.statePath,
      ]
        + extra,
      in: scratch)
    process = try TestProcess(launcher + [TestPaths.orientd] + arguments)
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
    return process.waitForExit()
  }
}

/// A raw socket client for tests that need exact control over bytes and timing.
final class TestClient {
  let descriptor: Int32
  /// orientd's own splitter, with room for any line a test may provoke.
  private var splitter = LineSplitter(limit: 1 << 20)
  private var lines: [String] = []
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

  /// Hangs up both ways at once. A close alone reaches orientd only when the last copy of the
  /// descriptor goes, and a child another test forks just then holds a copy until it executes
  /// its program; a shutdown acts on the connection itself, whatever copies exist.
  func hangUp() { shutdown(descriptor, Int32(SHUT_RDWR)) }

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
  func readLine(timeout: Double = patience) -> String? {
    let end = deadline(in: timeout)
    while true {
      if !lines.isEmpty { return lines.removeFirst() }
      let remaining = seconds(end - ContinuousClock.now)
      guard remaining > 0, !closedByServer else { return nil }
      var watched = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
      guard poll(&watched, 1, Int32(remaining * 1000) + 1) > 0 else { continue }
      var chunk = [UInt8](repeating: 0, count: 65536)
      let count = chunk.withUnsafeMutableBytes { recv(descriptor, $0.baseAddress, $0.count, 0) }
      if count <= 0 {
        closedByServer = true
        return nil
      }
      for piece in chunk.withUnsafeBytes({ splitter.append(UnsafeRawBufferPointer(rebasing: $0[0..<count])) })
      {
        guard case .line(let bytes) = piece else {
          Issue.record("orientd sent a line longer than \(splitter.limit) bytes")
          closedByServer = true
          return nil
        }
        lines.append(String(decoding: bytes, as: UTF8.self))
      }
    }
  }

  /// Reads `count` lines (fewer on timeout).
  func readLines(_ count: Int, timeout: Double = patience) -> [String] {
    var lines: [String] = []
    while lines.count < count, let line = readLine(timeout: timeout) { lines.append(line) }
    return lines
  }

  /// Reads lines up to and including `last`.
  func readLines(through last: String, timeout: Double = patience) -> [String] {
    var lines: [String] = []
    while let line = readLine(timeout: timeout) {
      lines.append(line)
      if line == last { break }
    }
    return lines
  }

  /// Sends `ping` and returns every line that came before the `pong`: the daemon answers
  /// commands in order, after everything it sent this connection before, so these are all
  /// the lines it had for this connection when it read the ping.
  func linesBeforePong(timeout: Double = patience) -> [String] {
    send("ping\n")
    return readLines(through: "pong", timeout: timeout).dropLast()
  }

  /// How many bytes this client sent that the server has not read yet (its end's receive
  /// queue, as `ss` lists it), or nil when `ss` does not show the connection.
  func unreadByServer() throws -> Int? {
    var info = stat()
    guard fstat(descriptor, &info) == 0 else { return nil }
    let ss = try #require(TestPaths.which("ss"), "ss is missing: apt-get install iproute2")
    // Lines: netid, state, Recv-Q, Send-Q, local address, its inode, peer address, its inode.
    for line in try runToCompletion([ss, "-x", "-H"]).stdout.split(separator: "\n") {
      let fields = line.split(separator: " ", omittingEmptySubsequences: true)
      if fields.count >= 8, fields.last == Substring(String(info.st_ino)) { return Int(fields[2]) }
    }
    return nil
  }

  /// Whether the server has closed the connection (waits up to `timeout` for it, reading
  /// and dropping what still comes).
  func waitForClose(timeout: Double = patience) -> Bool {
    let end = deadline(in: timeout)
    while !closedByServer, ContinuousClock.now < end {
      _ = readLine(timeout: seconds(end - ContinuousClock.now))
    }
    return closedByServer
  }
}

/// Waits until orientd at `socket` says its sensor is online, as a subscriber hears it;
/// returns whether it did.
func waitForSensorOnline(socket: String) throws -> Bool {
  let client = try TestClient(path: socket)
  guard let first = client.readLines(greetingLines).first else { return false }
  if first == "sensor online" { return true }
  while let line = client.readLine() {
    if line == "sensor online" { return true }
  }
  return false
}

/// How many state lines a client gets on connect where there is no hinge: sensor, device,
/// orientation, lock, allowed and mode.
let greetingLines = 6

/// The state lines a client gets on connect for a device held `normal`, unlocked, without
/// any source of the mode.
let normalSnapshot = [
  "sensor online", "device normal", "orientation normal", "lock off",
  "allowed normal,left-up,bottom-up,right-up", "mode unknown",
]

/// A process whose stdin is a FIFO the test types into, like a person at a terminal.
final class TypedProcess {
  let process: TestProcess
  private let input: FileHandle

  init(_ arguments: [String], environment: [String: String]? = nil) throws {
    let fifo = try Scratch.current().makeDirectory("stdin") + "/stdin"
    guard mkfifo(fifo, 0o600) == 0 else { throw POSIXError(.EIO) }
    // The child opens the FIFO read-write so it never blocks waiting for a writer.
    process = try TestProcess(arguments, environment: environment, stdinPath: fifo, stdinAccess: .readWrite)
    input = try #require(FileHandle(forWritingAtPath: fifo))
  }

  /// Types a line.
  func type(_ line: String) { input.write(Data((line + "\n").utf8)) }
}

/// A socat client of `socket` whose input the test types.
func socatClient(socket: String) throws -> TypedProcess {
  let socat = try #require(TestPaths.which("socat"), "socat is missing: apt-get install socat")
  return try TypedProcess([socat, "-", "UNIX-CONNECT:\(socket)"])
}
