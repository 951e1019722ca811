import Foundation
import Testing

/// The bus policy `make install` ships, `dbus/orientd-sensorproxy.conf`, checked on a private
/// bus as strict as the system bus, with real clients run as nobody. The name's owner is
/// orientd, run as its service runs it, and Debian's iio-sensor-proxy, whose objects orientd
/// serves and whose policy's shape the file keeps.
@Suite("The shipped D-Bus policy, on a bus as strict as the system bus", .scratch)
struct BusPolicyTests {
  static let policy = TestPaths.packageRoot + "/dbus/orientd-sensorproxy.conf"
  static let name = "net.hadess.SensorProxy"
  static let compass = "/net/hadess/SensorProxy/Compass"

  @Test("It lets root own net.hadess.SensorProxy, and nobody not")
  func ownership() throws {
    let bus = try policyBus(including: Self.policy)
    // Flag 4: fail rather than queue.
    func requestName(_ name: String) -> [String] {
      [
        "call", "org.freedesktop.DBus", "/org/freedesktop/DBus", "org.freedesktop.DBus", "RequestName", "su",
        name, "4",
      ]
    }
    // 1: the primary owner, until busctl disconnects.
    let root = try bus.busctl(requestName(Self.name))
    #expect(root.status == 0 && root.stdout == "u 1\n", "\(root)")
    let nobody = try bus.busctl(requestName(Self.name), asNobody: true)
    #expect(nobody.status != 0 && nobody.stderr.contains("Access denied"), "\(nobody)")
    // The bus denies owning names in general, as the system bus does: the rule is the policy's.
    let other = try bus.busctl(requestName("org.example.Other"))
    #expect(other.status != 0 && other.stderr.contains("Access denied"), "\(other)")
  }

  @Test("It refuses other users' signals to orientd at the bus: huge ones never queue up for it")
  func signalsAreRefused() throws {
    let bus = try policyBus(including: Self.policy)
    let export = "export DBUS_SYSTEM_BUS_ADDRESS=\(bus.address)"
    let (run, socket) = try servingFakeSensor(
      [FakeDevice.accelerometer(raw: (0, -256, 0))], extra: ["--dbus", "system", "--interval", "50"],
      prepare: export, ready: "D-Bus: serving \(Self.name)")
    let orientd = try #require(try bus.owner(of: Self.name))
    // 12 signals of 16 MiB from nobody: without the policy's rule the bus queues them for
    // orientd (192 MiB of traffic); with it the bus refuses each.
    let flood = try runToCompletion(
      Unprivileged.attack("bus-big-signals", [bus.address, "\(16 << 20)", "12"]))
    #expect(attackFigure("sent", in: flood.stdout) == "12", "\(flood)")
    let peak = try #require(try bus.connectionStatistic("PeakOutgoingBytes", of: orientd), "no statistics")
    #expect(peak < 1 << 20, "the bus queued \(peak) bytes for orientd at most")
    // orientd still serves nobody and its socket, and still has its name.
    let claim = try bus.busctl(
      ["call", Self.name, "/net/hadess/SensorProxy", Self.name, "ClaimAccelerometer"], asNobody: true)
    #expect(claim.status == 0, "\(claim)")
    #expect(try bus.owner(of: Self.name) == orientd)
    // The bus daemon's own signal still reaches it: the claimant's leaving ends its claim.
    let left = waitUntil {
      let client = try? TestClient(path: socket)
      client?.send("info\n")
      return client?.readLines(through: "ok").contains { $0.hasSuffix("0 clients claim the accelerometer") }
        == true
    }
    #expect(left, "orientd did not notice the claimant leaving")
    let get = try runToCompletion([TestPaths.orientctl, "--socket", socket, "get", "sensor"])
    #expect(get.stdout == "online\n", "\(get)")
    #expect(run.stop() == 0)
  }

  /// The two programs that own the name: orientd as its service runs it, and iio-sensor-proxy.
  enum Owner: String, CaseIterable, CustomTestStringConvertible {
    case orientd
    case iioSensorProxy = "iio-sensor-proxy"
    var testDescription: String { rawValue }
  }

  @Test(
    "It lets nobody claim, read, introspect, ping and receive PropertiesChanged; the compass object stays geoclue's",
    arguments: Owner.allCases)
  func everyoneButTheCompass(owner: Owner) throws {
    try SensorProxyPeer.requireInstalled()
    let bus = try policyBus(including: Self.policy)
    let device = FakeDevice.accelerometer(raw: (0, -256, 0))
    // Both inside their testbed, as root, the bus's address given as the environment gives it.
    let export = "export DBUS_SYSTEM_BUS_ADDRESS=\(bus.address)"
    let run: FakeSensorRun
    switch owner {
    case .orientd:
      run = try servingFakeSensor(
        [device], extra: ["--dbus", "system", "--interval", "50", "--settle", "0"], prepare: export,
        ready: "D-Bus: serving \(Self.name)"
      ).run
    case .iioSensorProxy:
      run = try FakeSensorRun(
        devices: [device.forSensorProxy], arguments: [], prepare: export,
        executable: "/usr/sbin/iio-sensor-proxy")
    }
    // The owner coming up is the premise, waited for apart from what the test checks.
    let owned = try waitUntil(timeout: startupPatience) {
      try bus.busctl([
        "call", "org.freedesktop.DBus", "/org/freedesktop/DBus", "org.freedesktop.DBus", "NameHasOwner", "s",
        Self.name,
      ]).stdout == "b true\n"
    }
    try #require(owned, "\(owner) did not take the name: \(run.process.stderr)")

    // monitor-sensor claims the accelerometer, reads every property, and prints what the
    // PropertiesChanged signals say.
    let monitor = try TestProcess(
      try Unprivileged.command([try #require(TestPaths.which("monitor-sensor"))]),
      environment: try bus.environment)
    // Undefined until the claim is served, from both owners alike.
    #expect(
      monitor.waitFor("=== Has accelerometer (orientation: undefined)"), "\(monitor.stdout)\(monitor.stderr)")
    #expect(
      monitor.waitFor("Accelerometer orientation changed: normal"), "\(monitor.stdout)\(monitor.stderr)")
    try run.setRaw(-256, 0, 0)
    #expect(
      monitor.waitFor("Accelerometer orientation changed: right-up"), "\(monitor.stdout)\(monitor.stderr)")

    let ping = try bus.busctl(
      ["call", Self.name, "/net/hadess/SensorProxy", "org.freedesktop.DBus.Peer", "Ping"], asNobody: true)
    #expect(ping.status == 0, "\(ping)")
    let introspect = try bus.busctl(["introspect", Self.name, "/net/hadess/SensorProxy"], asNobody: true)
    #expect(
      introspect.status == 0 && introspect.stdout.contains(".AccelerometerOrientation"), "\(introspect)")
    let release = try bus.busctl(
      ["call", Self.name, "/net/hadess/SensorProxy", Self.name, "ReleaseAccelerometer"], asNobody: true)
    #expect(release.status == 0, "\(release)")

    for denied in [
      ["get-property", Self.name, Self.compass, Self.name + ".Compass", "HasCompass"],
      ["call", Self.name, Self.compass, Self.name + ".Compass", "ClaimCompass"],
      ["call", Self.name, Self.compass, "org.freedesktop.DBus.Introspectable", "Introspect"],
      ["call", Self.name, Self.compass, "org.freedesktop.DBus.Peer", "Ping"],
    ] {
      let result = try bus.busctl(denied, asNobody: true)
      #expect(result.status != 0 && result.stderr.contains("Access denied"), "\(denied): \(result)")
    }
    monitor.kill()
  }
}

/// A private bus as strict as the system bus, with `policy` included and a socket other
/// users reach.
func policyBus(including policy: String) throws -> TestBus {
  try TestBus(config: "strict-system-bus.conf", including: policy, openToOthers: true)
}
