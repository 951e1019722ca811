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
    // And has found the accelerometer: else monitor-sensor's first line says there is none,
    // however long the test waits for the line it checks.
    let found = try waitUntil(timeout: startupPatience) {
      try bus.busctl([
        "get-property", Self.name, "/net/hadess/SensorProxy", Self.name, "HasAccelerometer",
      ]).stdout == "b true\n"
    }
    try #require(found, "\(owner) did not find the accelerometer: \(run.process.stderr)")

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

/// A user database of the test's own, with a `geoclue` user, for programs run with
/// nss_wrapper (Debian's libnss-wrapper): the bus daemon resolving the policy's
/// `user="geoclue"`, and monitor-sensor asking who runs it. Nothing of the host's changes.
struct WrappedUsers {
  static let geoclue: UInt32 = 64990
  let environment: [String: String]

  init() throws {
    let library = "/usr/lib/x86_64-linux-gnu/libnss_wrapper.so"
    try #require(
      FileManager.default.fileExists(atPath: library),
      "libnss_wrapper is missing: apt-get install libnss-wrapper")
    let directory = try Scratch.current().makeDirectory("users")
    try """
    root:x:0:0:root:/root:/bin/sh
    nobody:x:65534:65534:nobody:/nonexistent:/usr/sbin/nologin
    geoclue:x:\(Self.geoclue):\(Self.geoclue):geoclue:/var/lib/geoclue:/usr/sbin/nologin

    """.write(toFile: directory + "/passwd", atomically: true, encoding: .utf8)
    try """
    root:x:0:
    nogroup:x:65534:
    geoclue:x:\(Self.geoclue):

    """.write(toFile: directory + "/group", atomically: true, encoding: .utf8)
    chmod(directory, 0o755)
    for file in ["passwd", "group"] { chmod(directory + "/" + file, 0o644) }
    environment = [
      "LD_PRELOAD": library, "NSS_WRAPPER_PASSWD": directory + "/passwd",
      "NSS_WRAPPER_GROUP": directory + "/group",
    ]
  }
}

@Suite("The compass object is geoclue's, as iio-sensor-proxy's policy keeps it", .scratch)
struct CompassPolicyTests {
  @Test(
    "Under the shipped policy, monitor-sensor run as geoclue follows orientd's compass; nobody may not touch it"
  )
  func geoclueHasTheCompass() throws {
    let users = try WrappedUsers()
    let bus = try TestBus(
      config: "strict-system-bus.conf", including: BusPolicyTests.policy, openToOthers: true,
      daemonEnvironment: try Scratch.current().environment.merging(users.environment) { $1 })
    let devices: [FakeDevice] = [
      .hubCompass(heading: 90),
      .accelerometer(path: "/devices/platform/accel/iio:device1", id: "iio:device1"),
      .trigger("magn_3d-dev0", number: 0),
    ]
    let directory = try Scratch.current().makeDirectory("daemon")
    let run = try FakeSensorRun(
      devices: devices,
      arguments: ["--dbus", "system", "--socket", directory + "/s", "--state", directory + "/state"],
      prepare: "export DBUS_SYSTEM_BUS_ADDRESS=\(bus.address)", fifoDevices: [0])
    try #require(
      run.process.waitFor("D-Bus: serving net.hadess.SensorProxy", inStderr: true, timeout: startupPatience),
      "\(run.process.stderr)")
    let environment = try bus.environment.merging(users.environment) { $1 }
    let geoclue = try TestProcess(
      try Unprivileged.command([try #require(TestPaths.which("monitor-sensor"))], uid: WrappedUsers.geoclue),
      environment: environment)
    // Debian 12's monitor-sensor asks the main object for the heading at first (`unset`),
    // then follows the compass object's signals.
    #expect(geoclue.waitFor("=== Has compass"), "\(geoclue.stdout)\(geoclue.stderr)")
    #expect(geoclue.waitFor("Compass heading changed: 90.000000"), "\(geoclue.stdout)\(geoclue.stderr)")
    try run.writeNode(scans32([180]), device: 0)
    #expect(geoclue.waitFor("Compass heading changed: 180.000000"), "\(geoclue.stdout)")
    // nobody sees the rest and not the compass: its monitor-sensor prints no compass line.
    let nobody = try TestProcess(
      try Unprivileged.command([try #require(TestPaths.which("monitor-sensor"))]), environment: environment)
    #expect(nobody.waitFor("=== Has accelerometer"), "\(nobody.stdout)\(nobody.stderr)")
    let heading = try bus.busctl(
      [
        "get-property", "net.hadess.SensorProxy", BusPolicyTests.compass, "net.hadess.SensorProxy.Compass",
        "CompassHeading",
      ],
      asNobody: true)
    #expect(heading.status != 0 && heading.stderr.contains("Access denied"), "\(heading)")
    geoclue.kill()
    nobody.kill()
    #expect(run.stop() == 0)
  }
}

/// A private bus as strict as the system bus, with `policy` included and a socket other
/// users reach.
func policyBus(including policy: String) throws -> TestBus {
  try TestBus(config: "strict-system-bus.conf", including: policy, openToOthers: true)
}
