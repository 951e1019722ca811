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
    let bus = try PolicyBus(including: Self.policy)
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
    let bus = try PolicyBus(including: Self.policy)
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
    let owned = try waitUntil {
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
      environment: bus.environment)
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

/// A private dbus-daemon whose policy is the system bus's default (no one may own a name or
/// call a method unless a rule allows it; signals and replies pass) plus the included file.
/// Its socket is in a directory nobody may enter, so clients run as nobody reach it.
final class PolicyBus {
  /// The bus's address, as `DBUS_SYSTEM_BUS_ADDRESS` gives it.
  let address: String
  private let daemon: TestProcess

  /// Starts the bus; fails, with the daemon's complaint, when it does not accept `policy`.
  init(including policy: String) throws {
    let dbusDaemon = try #require(
      TestPaths.which("dbus-daemon"), "dbus-daemon is missing: apt-get install dbus")
    let directory = try Unprivileged.openDirectory(in: try Scratch.current())
    let socket = directory + "/bus"
    // The default context of dbus's own system.conf, minus what concerns other services.
    let config = """
      <!DOCTYPE busconfig PUBLIC "-//freedesktop//DTD D-Bus Bus Configuration 1.0//EN"
       "http://www.freedesktop.org/standards/dbus/1.0/busconfig.dtd">
      <busconfig>
        <type>system</type>
        <listen>unix:path=\(socket)</listen>
        <auth>EXTERNAL</auth>
        <policy context="default">
          <allow user="*"/>
          <deny own="*"/>
          <deny send_type="method_call"/>
          <allow send_type="signal"/>
          <allow send_requested_reply="true" send_type="method_return"/>
          <allow send_requested_reply="true" send_type="error"/>
          <allow receive_type="method_call"/>
          <allow receive_type="method_return"/>
          <allow receive_type="error"/>
          <allow receive_type="signal"/>
          <allow send_destination="org.freedesktop.DBus" send_interface="org.freedesktop.DBus"/>
          <allow send_destination="org.freedesktop.DBus" send_interface="org.freedesktop.DBus.Introspectable"/>
          <allow send_destination="org.freedesktop.DBus" send_interface="org.freedesktop.DBus.Properties"/>
        </policy>
        <include>\(policy)</include>
      </busconfig>

      """
    let configPath = try Scratch.current().makeDirectory("bus-config") + "/bus.conf"
    try config.write(toFile: configPath, atomically: true, encoding: .utf8)
    daemon = try TestProcess([
      dbusDaemon, "--config-file=\(configPath)", "--nofork", "--nosyslog", "--print-address",
    ])
    // The address is printed once the socket listens; a config it refuses ends it instead.
    let daemon = daemon
    try #require(
      waitUntil { !daemon.stdoutLines.isEmpty || !daemon.isRunning },
      "dbus-daemon neither listened nor exited")
    let line = daemon.stdoutLines.first ?? ""
    try #require(line.hasPrefix("unix:path=\(socket),"), "dbus-daemon refused its config: \(daemon.stderr)")
    address = "unix:path=" + socket
  }

  /// Ends the daemon, the test's own child, if it still runs.
  deinit { daemon.kill() }

  /// The scratch environment, with this bus as the system bus.
  var environment: [String: String] {
    var environment = (try? Scratch.current().environment) ?? [:]
    environment["DBUS_SYSTEM_BUS_ADDRESS"] = address
    return environment
  }

  /// Runs `busctl --address=... ARGUMENTS`, as root or as nobody.
  func busctl(_ arguments: [String], asNobody: Bool = false) throws -> (
    status: Int32, stdout: String, stderr: String
  ) {
    let busctl = try #require(TestPaths.which("busctl"), "busctl is missing (systemd)")
    let command = [busctl, "--address=\(address)", "--no-pager"] + arguments
    return try runToCompletion(asNobody ? try Unprivileged.command(command) : command)
  }
}
