import Foundation
import Testing

/// A TCP port on 127.0.0.1 that nothing listens on right now.
func freeLocalPort() throws -> UInt16 {
  for _ in 0..<50 {
    let port = UInt16.random(in: 20_000...60_000)
    let probe = socket(AF_INET, Int32(SOCK_STREAM.rawValue | SOCK_CLOEXEC.rawValue), 0)
    defer { close(probe) }
    if withLoopbackAddress(port: port, { bind(probe, $0, $1) }) == 0 { return port }
  }
  throw POSIXError(.EADDRINUSE)
}

/// Whether something accepts TCP connections on 127.0.0.1:`port`.
func isListening(port: UInt16) -> Bool {
  let probe = socket(AF_INET, Int32(SOCK_STREAM.rawValue | SOCK_CLOEXEC.rawValue), 0)
  defer { close(probe) }
  return withLoopbackAddress(port: port) { connect(probe, $0, $1) } == 0
}

@Suite("Remote sensors through iiod", .scratch)
struct RemoteSensorTests {
  /// Debian's iiod serving `device` from a umockdev testbed on 127.0.0.1:`port`.
  func startServer(_ device: FakeDevice, port: UInt16) throws -> FakeSensorRun {
    let iiod = try #require(
      TestPaths.which("iiod")
        ?? (FileManager.default.fileExists(atPath: "/usr/sbin/iiod") ? "/usr/sbin/iiod" : nil),
      "iiod is missing: apt-get install iiod")
    let server = try FakeSensorRun(devices: [device], arguments: ["-p", "\(port)"], executable: iiod)
    try #require(waitUntil { isListening(port: port) }, "iiod did not start: \(server.process.stderr)")
    return server
  }

  @Test("--uri ip: reads a sensor served by iiod; the sensor goes offline with the server and back with it")
  func remoteSensor() throws {
    let port = try freeLocalPort()
    let device = FakeDevice.accelerometer(raw: (256, 0, 0))
    var server: FakeSensorRun? = try startServer(device, port: port)

    let directory = try Scratch.current().makeDirectory()
    let socket = directory + "/s"
    let daemon = try TestProcess([
      TestPaths.orientd, "--uri", "ip:127.0.0.1:\(port)", "--interval", "50", "--settle", "0", "--socket",
      socket,
      "--state", directory + "/st",
    ])
    #expect(daemon.waitFor("info: orientation left-up", inStderr: true))
    let subscriber = try TestClient(path: socket)
    #expect(
      subscriber.readLines(greetingLines).prefix(3) == [
        "sensor online", "device left-up", "orientation left-up",
      ])

    try server?.setRaw(0, 256, 0)
    #expect(subscriber.readLines(2) == ["device bottom-up", "orientation bottom-up"])

    // The server dies with the client connected, as when its machine goes away.
    #expect(server?.stop(signal: SIGKILL) == 128 + SIGKILL)
    server = nil
    #expect(subscriber.readLine() == "sensor offline")
    #expect(
      try runToCompletion([TestPaths.orientctl, "--socket", socket, "get"]).stdout.contains(
        "orientation bottom-up"))

    server = try startServer(device, port: port)
    #expect(subscriber.readLines(3) == ["sensor online", "device left-up", "orientation left-up"])
    daemon.signal(SIGTERM)
    #expect(daemon.waitForExit() == 0)
    _ = server?.stop(signal: SIGKILL)
  }

  @Test("--list works over the network")
  func remoteList() throws {
    let port = try freeLocalPort()
    let server = try startServer(.accelerometer(raw: (0, -256, 0)), port: port)
    let result = try runToCompletion([TestPaths.orientd, "--list", "--uri", "ip:127.0.0.1:\(port)"])
    #expect(result.status == 0)
    #expect(result.stdout.contains("-> normal"))
    _ = server.stop(signal: SIGKILL)
  }

  @Test("An unreachable server at start makes --dump exit 69 with advice, and the daemon wait for it")
  func unreachableServer() throws {
    let port = try freeLocalPort()
    let dump = try runToCompletion([TestPaths.orientd, "--dump", "--uri", "ip:127.0.0.1:\(port)"])
    #expect(dump.status == 69)
    #expect(dump.stderr.contains("is iiod running"))

    let directory = try Scratch.current().makeDirectory()
    let daemon = try TestProcess([
      TestPaths.orientd, "--uri", "ip:127.0.0.1:\(port)", "--interval", "50", "--settle", "0",
      "--socket", directory + "/s", "--state", directory + "/st",
    ])
    #expect(daemon.waitFor("looking again every second", inStderr: true))
    let server = try startServer(.accelerometer(raw: (-256, 0, 0)), port: port)
    #expect(daemon.waitFor("info: orientation right-up", inStderr: true))
    daemon.signal(SIGTERM)
    #expect(daemon.waitForExit() == 0)
    _ = server.stop(signal: SIGKILL)
  }
}
