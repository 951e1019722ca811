import Foundation
import Testing

/// A private system bus for one test: a real dbus-daemon on a socket in the test's scratch
/// directory, with the package's private-bus config. It can be killed and started again on
/// the same address, as a bus that crashes and comes back.
final class TestBus {
  /// The socket's path.
  let socket: String
  /// `DBUS_SYSTEM_BUS_ADDRESS` for clients and orientd.
  var address: String { "unix:path=\(socket)" }
  private let config: String
  private var daemon: TestProcess?

  /// Starts the bus with the config `fixture` (in Tests/Fixtures), whose `@INCLUDE@` becomes
  /// `including`; with `openToOthers` its socket is in a directory other users may enter.
  /// Fails unless dbus-daemon is installed and accepts the config.
  init(
    config fixture: String = "private-system-bus.conf", including: String? = nil, openToOthers: Bool = false,
    daemonEnvironment: [String: String]? = nil
  )
    throws
  {
    self.daemonEnvironment = daemonEnvironment
    let dbusDaemon = try #require(
      TestPaths.which("dbus-daemon"), "dbus-daemon is missing: apt-get install dbus")
    let scratch = try Scratch.current()
    let directory =
      openToOthers ? try Unprivileged.openDirectory(in: scratch) : try scratch.makeDirectory("bus")
    socket = directory + "/socket"
    config = try scratch.makeDirectory("bus-config") + "/bus.conf"
    var text = try String(
      contentsOfFile: TestPaths.packageRoot + "/Tests/Fixtures/" + fixture, encoding: .utf8
    )
    .replacingOccurrences(of: "@BUS@", with: socket)
    if let including { text = text.replacingOccurrences(of: "@INCLUDE@", with: including) }
    try text.write(toFile: config, atomically: true, encoding: .utf8)
    self.dbusDaemon = dbusDaemon
    try start()
  }

  private let dbusDaemon: String
  /// dbus-daemon's environment, when it needs one of its own (a user database of the test's).
  private let daemonEnvironment: [String: String]?

  /// Starts dbus-daemon and waits until it listens (it prints its address then).
  func start() throws {
    let daemon = try TestProcess(
      [dbusDaemon, "--config-file=\(config)", "--nofork", "--nosyslog", "--print-address"],
      environment: daemonEnvironment)
    self.daemon = daemon
    try #require(
      waitUntil { daemon.stdoutLines.first?.hasPrefix("unix:") == true || !daemon.isRunning },
      "dbus-daemon did not start")
    try #require(daemon.isRunning, "dbus-daemon exited: \(daemon.stderr)")
  }

  /// Kills dbus-daemon (SIGKILL, as a crash) and waits until it is gone.
  func kill() {
    daemon?.kill()
    daemon = nil
  }

  /// The scratch environment with this bus as the system bus.
  var environment: [String: String] {
    get throws {
      var environment = try Scratch.current().environment
      environment["DBUS_SYSTEM_BUS_ADDRESS"] = address
      return environment
    }
  }

  /// `busctl --address=... ARGUMENTS`, run to completion, as root or as nobody.
  func busctl(_ arguments: [String], asNobody: Bool = false) throws -> (
    status: Int32, stdout: String, stderr: String
  ) {
    let busctl = try #require(TestPaths.which("busctl"), "busctl is missing: apt-get install systemd")
    let command = [busctl, "--address=\(address)", "--no-pager"] + arguments
    return try runToCompletion(asNobody ? try Unprivileged.command(command) : command)
  }

  /// A number from the bus daemon's statistics of the connection `name` (its Debug.Stats),
  /// such as `MatchRules` or `PeakOutgoingBytes` (what the bus queued for it at most); nil
  /// when the bus gives none.
  func connectionStatistic(_ key: String, of name: String) throws -> Int? {
    let result = try busctl([
      "call", "org.freedesktop.DBus", "/org/freedesktop/DBus", "org.freedesktop.DBus.Debug.Stats",
      "GetConnectionStats", "s", name,
    ])
    guard result.status == 0 else { return nil }
    // `a{sv} 16 "Serial" u 7 "MatchRules" u 2 ...`
    let words = result.stdout.split(separator: " ")
    guard let index = words.firstIndex(of: "\"\(key)\""), index + 2 < words.count else { return nil }
    return Int(words[index + 2])
  }

  /// The unique name that owns `name`, or nil.
  func owner(of name: String) throws -> String? {
    let result = try busctl([
      "call", "org.freedesktop.DBus", "/org/freedesktop/DBus", "org.freedesktop.DBus",
      "GetNameOwner", "s", name,
    ])
    guard result.status == 0 else { return nil }
    // `s ":1.5"`
    return result.stdout.split(separator: "\"").dropFirst().first.map(String.init)
  }
}

/// A client of net.hadess.SensorProxy built on Gio (Tests/Fixtures/sensor-proxy-client.py),
/// typed to through its stdin.
final class SensorProxyClient {
  let typed: TypedProcess
  /// The client's unique name on the bus.
  let uniqueName: String
  var process: TestProcess { typed.process }

  /// Starts a client of `bus` and waits until it is connected.
  init(bus: TestBus) throws {
    let python = "/usr/bin/python3"
    try #require(
      FileManager.default.isExecutableFile(atPath: python),
      "python3 is missing: apt-get install python3-gi gir1.2-glib-2.0")
    typed = try TypedProcess(
      [python, TestPaths.packageRoot + "/Tests/Fixtures/sensor-proxy-client.py"],
      environment: try bus.environment)
    let process = typed.process
    try #require(
      waitUntil { process.stdoutLines.contains { $0.hasPrefix("ready ") } || !process.isRunning },
      "the D-Bus client did not start: \(process.stderr)")
    let ready = try #require(process.stdoutLines.first { $0.hasPrefix("ready ") }, "\(process.stderr)")
    uniqueName = String(ready.dropFirst("ready ".count))
  }

  /// Types a command and waits for the `count`-th line that starts with `prefix`; returns it.
  @discardableResult
  func send(_ command: String, waitFor prefix: String, count: Int? = nil) -> String? {
    let expected = (count ?? lines(prefix).count + 1)
    typed.type(command)
    waitUntil { lines(prefix).count >= expected }
    let found = lines(prefix)
    return found.count >= expected ? found[expected - 1] : nil
  }

  /// The lines printed so far that start with `prefix`.
  func lines(_ prefix: String) -> [String] { process.stdoutLines.filter { $0.hasPrefix(prefix) } }

  /// The `changed ...` lines so far.
  var changes: [String] { lines("changed ") }
}

extension TestBus {
  /// orientd on `device` (a polled accelerometer held `normal`), serving D-Bus on this bus
  /// as its system bus, with `extra` options.
  func orientd(device: FakeDevice = .accelerometer(), extra: [String] = []) throws -> WatchedDaemon {
    try WatchedDaemon(
      [device], extra: ["--dbus", "system"] + extra, prepare: "export DBUS_SYSTEM_BUS_ADDRESS=\(address)")
  }

  /// `orientd(extra:)` once it reads `normal` and owns net.hadess.SensorProxy.
  func servingOrientd(extra: [String] = []) throws -> WatchedDaemon {
    let daemon = try orientd(extra: extra)
    try #require(daemon.waitFor("device", "normal"))
    try #require(daemon.waitUntilServing(), "\(daemon.run.process.stderr)")
    return daemon
  }
}

extension WatchedDaemon {
  /// Waits until orientd has said `count` times that it serves the name.
  func waitUntilServing(count: Int = 1) -> Bool {
    // A premise: orientd coming up on the bus is waited for apart from what a test checks.
    run.process.waitFor(
      "D-Bus: serving net.hadess.SensorProxy", inStderr: true, count: count, timeout: startupPatience)
  }

  /// The socket's `info dbus` line.
  func busInfo() throws -> String {
    let client = try TestClient(path: socket)
    client.send("info\n")
    let lines = client.readLines(through: "ok")
    return lines.first { $0.hasPrefix("info dbus ") } ?? lines.joined(separator: "\n")
  }

  /// Waits until `info` says that `count` clients claim the accelerometer.
  func waitForClaimants(_ count: Int) -> Bool {
    let text = count == 1 ? "; 1 client claims" : "; \(count) clients claim"
    return waitUntil { (try? busInfo())?.contains(text) == true }
  }
}

extension SensorProxyClient {
  /// Claims `sensor`; whether orientd answered with an empty reply.
  func claim(_ sensor: String = "Accelerometer") -> Bool {
    send("claim \(sensor)", waitFor: "reply") == "reply Claim\(sensor)"
  }
}
