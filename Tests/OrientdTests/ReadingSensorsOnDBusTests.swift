import Foundation
import Testing

/// The light sensor, the proximity sensor and the compass on `net.hadess.SensorProxy`, read by
/// real clients (`monitor-sensor`, a GDBusProxy client as GNOME's, Qt's QtSensors through its
/// iio-sensor-proxy backend), against orientd and against Debian's iio-sensor-proxy on the
/// same umockdev devices: each property and signal the same.
@Suite("Light, proximity and compass on D-Bus, beside iio-sensor-proxy", .scratch)
struct ReadingSensorsOnDBusTests {
  /// iio-sensor-proxy's test light sensor (a processed level, polled), its proximity sensor
  /// with a near level from udev, and a polled accelerometer, each marked for iio-sensor-proxy
  /// as its udev rule would (orientd does not read the mark).
  static let devices: [FakeDevice] = [
    FakeDevice.accelerometer().forSensorProxy,
    FakeDevice.processedLightSensor(input: "10").with(property: "IIO_SENSOR_PROXY_TYPE", "iio-poll-als"),
    FakeDevice.proximitySensor(raw: "256", nearLevelProperty: "128")
      .with(property: "IIO_SENSOR_PROXY_TYPE", "iio-poll-proximity"),
  ]

  /// A HID hub's compass read through its buffer (a FIFO here), its trigger, and an
  /// accelerometer, marked for iio-sensor-proxy.
  static let compassDevices: [FakeDevice] = [
    FakeDevice.hubCompass(heading: 90).with(property: "IIO_SENSOR_PROXY_TYPE", "iio-buffer-compass"),
    FakeDevice.accelerometer(path: "/devices/platform/accel/iio:device1", id: "iio:device1").forSensorProxy,
    .trigger("magn_3d-dev0", number: 0),
  ]

  /// orientd on `devices` serving D-Bus on `bus`, without a socket client (a client would
  /// keep the sensors read, which iio-sensor-proxy never does before a claim).
  private func orientd(_ devices: [FakeDevice], on bus: TestBus, fifoDevices: [Int] = []) throws -> (
    run: FakeSensorRun, socket: String
  ) {
    let directory = try Scratch.current().makeDirectory("daemon")
    let run = try FakeSensorRun(
      devices: devices,
      arguments: [
        "--dbus", "system", "--interval", "50", "--settle", "0", "--socket", directory + "/s", "--state",
        directory + "/state",
      ], prepare: "export DBUS_SYSTEM_BUS_ADDRESS=\(bus.address)", fifoDevices: fifoDevices)
    try #require(
      run.process.waitFor("D-Bus: serving net.hadess.SensorProxy", inStderr: true, timeout: startupPatience),
      "\(run.process.stderr)")
    return (run, directory + "/s")
  }

  /// monitor-sensor's lines about the light and proximity sensors, the two sensors kept
  /// apart (each one's lines in order; which one's reading comes first is timing).
  private func readingLines(_ lines: [String]) -> (initial: [String], light: [String], proximity: [String]) {
    let trimmed = lines.map { $0.trimmingCharacters(in: .whitespaces) }
    return (
      trimmed.filter { $0.hasPrefix("===") },
      trimmed.filter { $0.hasPrefix("Light changed") || $0.contains("Light sensor") },
      trimmed.filter { $0.hasPrefix("Proximity value") || $0.contains("Proximity sensor") }
    )
  }

  @Test(
    "monitor-sensor prints the same light and proximity lines against orientd as against iio-sensor-proxy")
  func monitorSensorMatches() throws {
    try SensorProxyPeer.requireInstalled()
    let bus = try TestBus()
    let (run, _) = try orientd(Self.devices, on: bus)
    let monitor = try TestProcess(
      [try #require(TestPaths.which("monitor-sensor"))], environment: try bus.environment)
    #expect(monitor.waitFor("Light changed: 10.000000 (lux)"), "\(monitor.stdout)")
    #expect(monitor.waitFor("Proximity value changed: 1"), "\(monitor.stdout)")
    try run.write("in_illuminance_input", "30", device: 1)
    #expect(monitor.waitFor("Light changed: 30.000000 (lux)"), "\(monitor.stdout)")
    try run.write("in_proximity_raw", "0", device: 2)
    #expect(monitor.waitFor("Proximity value changed: 0"), "\(monitor.stdout)")
    let fromOrientd = readingLines(monitor.stdoutLines)
    monitor.kill()
    #expect(run.stop() == 0)

    let peer = try SensorProxyPeer(Self.devices, sensorsFound: ["HasAmbientLight", "HasProximity"])
    let output = peer.run.process
    #expect(output.waitFor("Light changed: 10.000000 (lux)"), "\(output.stdout)")
    #expect(output.waitFor("Proximity value changed: 1"), "\(output.stdout)")
    try peer.run.write("in_illuminance_input", "30", device: 1)
    #expect(output.waitFor("Light changed: 30.000000 (lux)"), "\(output.stdout)")
    try peer.run.write("in_proximity_raw", "0", device: 2)
    #expect(output.waitFor("Proximity value changed: 0"), "\(output.stdout)")
    let fromPeer = readingLines(output.stdoutLines)

    #expect(fromOrientd.initial == fromPeer.initial)
    #expect(fromOrientd.light == fromPeer.light)
    #expect(fromOrientd.proximity == fromPeer.proximity)
    #expect(
      fromOrientd.initial == [
        "=== Has accelerometer (orientation: undefined)",
        "=== Has ambient light sensor (value: 0.000000, unit: lux)",
        "=== Has proximity sensor (near: 0)",
      ], "\(fromOrientd.initial)")
    #expect(fromOrientd.light == ["Light changed: 10.000000 (lux)", "Light changed: 30.000000 (lux)"])
    #expect(fromOrientd.proximity == ["Proximity value changed: 1", "Proximity value changed: 0"])
  }

  /// What a Gio client sees of the light and proximity sensors before and after it claims
  /// them: the properties read, then the PropertiesChanged that follow the claims.
  private func seenByGio(_ bus: TestBus, light: (String) throws -> Void) throws -> [String] {
    let client = try SensorProxyClient(bus: bus)
    var seen: [String] = []
    for property in ["HasAmbientLight", "LightLevelUnit", "LightLevel", "HasProximity", "ProximityNear"] {
      seen.append("\(property) " + (client.send("get \(property)", waitFor: "reply") ?? "no reply"))
    }
    #expect(client.claim("Light"))
    #expect(client.claim("Proximity"))
    #expect(
      waitUntil { client.changes.contains("changed LightLevel=10.0 LightLevelUnit=lux") }, "\(client.changes)"
    )
    #expect(waitUntil { client.changes.contains("changed ProximityNear=true") }, "\(client.changes)")
    try light("20")
    #expect(
      waitUntil { client.changes.contains("changed LightLevel=20.0 LightLevelUnit=lux") }, "\(client.changes)"
    )
    seen.append("LightLevel " + (client.send("get LightLevel", waitFor: "reply") ?? "no reply"))
    seen.append("ProximityNear " + (client.send("get ProximityNear", waitFor: "reply") ?? "no reply"))
    return seen + client.changes.sorted()
  }

  @Test(
    "A Gio client reads the same properties and signals of light and proximity from orientd as from iio-sensor-proxy"
  )
  func gioMatches() throws {
    try SensorProxyPeer.requireInstalled()
    let bus = try TestBus()
    let (run, _) = try orientd(Self.devices, on: bus)
    let fromOrientd = try seenByGio(bus) { try run.write("in_illuminance_input", $0, device: 1) }
    #expect(run.stop() == 0)

    let peerBus = try TestBus()
    let peer = try SensorProxyPeer(Self.devices, sharedBus: peerBus, withMonitor: false)
    #expect(waitUntil(timeout: startupPatience) { (try? peerBus.owner(of: "net.hadess.SensorProxy")) != nil })
    let fromPeer = try seenByGio(peerBus) { try peer.run.write("in_illuminance_input", $0, device: 1) }
    #expect(fromOrientd == fromPeer)
    #expect(
      Array(fromOrientd.prefix(5)) == [
        "HasAmbientLight reply Get true", "LightLevelUnit reply Get lux", "LightLevel reply Get 0.0",
        "HasProximity reply Get true", "ProximityNear reply Get false",
      ], "\(fromOrientd)")
  }

  @Test(
    "A claim is what keeps the light sensor read: before it and a linger after the release, nothing reads it")
  func claimsDriveReading() throws {
    let bus = try TestBus()
    let (run, socket) = try orientd(Self.devices, on: bus)
    let client = try SensorProxyClient(bus: bus)
    try run.markUnread("in_illuminance_input", device: 1)
    // The premise that a read would show: one comes once a client claims.
    #expect(client.claim("Light"))
    #expect(waitUntil { run.hasBeenRead("in_illuminance_input", device: 1) })
    #expect(waitUntil { (try? infoLine(socket, "dbus"))?.contains("1 the ambient light sensor") == true })
    #expect(client.send("release Light", waitFor: "reply") == "reply ReleaseLight")
    #expect(
      waitUntil(timeout: patience + 5) {
        (try? infoLine(socket, "light-sensor"))?.hasSuffix("(nothing needs it)") == true
      })
    try run.markUnread("in_illuminance_input", device: 1)
    // Ten poll intervals (0.1 s): no read.
    #expect(!waitUntil(timeout: 1) { run.hasBeenRead("in_illuminance_input", device: 1) })
    // A client that leaves the bus loses its claim as a release does.
    #expect(client.claim("Light"))
    #expect(waitUntil { (try? infoLine(socket, "light-sensor"))?.hasSuffix("read now") == true })
    client.typed.type("quit")
    #expect(
      waitUntil(timeout: patience + 5) {
        (try? infoLine(socket, "light-sensor"))?.hasSuffix("(nothing needs it)") == true
      })
    #expect(run.stop() == 0)
  }

  @Test("Apple's SMC light sensor through hwmon: monitor-sensor prints the same vendor levels from both")
  func hwmonMatches() throws {
    try SensorProxyPeer.requireInstalled()
    let devices = [FakeDevice.accelerometer().forSensorProxy] + FakeDevice.appleLightSensor("(128,128)")
    let bus = try TestBus()
    let (run, _) = try orientd(devices, on: bus)
    let monitor = try TestProcess(
      [try #require(TestPaths.which("monitor-sensor"))], environment: try bus.environment)
    #expect(monitor.waitFor("Light changed: 50.196078 (vendor)"), "\(monitor.stdout)")
    try run.write("light", "(255,255)", device: 1)
    #expect(monitor.waitFor("Light changed: 100.000000 (vendor)"), "\(monitor.stdout)")
    let fromOrientd = readingLines(monitor.stdoutLines).light
    monitor.kill()
    #expect(run.stop() == 0)

    let peer = try SensorProxyPeer(devices)
    let output = peer.run.process
    #expect(output.waitFor("Light changed: 50.19608"), "\(output.stdout)")
    try peer.run.write("light", "(255,255)", device: 1)
    // iio-sensor-proxy reads Apple's sensor every 8 s.
    #expect(output.waitFor("Light changed: 100.000000 (vendor)", timeout: patience + 8), "\(output.stdout)")
    #expect(fromOrientd == ["Light changed: 50.196078 (vendor)", "Light changed: 100.000000 (vendor)"])
    // iio-sensor-proxy works the percentage out in single precision: 50.196083 for 128/255.
    // Slow to read the sensor (a loaded machine), it first shows monitor-sensor a 0 in lux.
    let fromPeer = readingLines(output.stdoutLines).light.filter { $0.hasSuffix("(vendor)") }
    #expect(fromPeer.count == 2 && fromPeer.last == fromOrientd.last, "\(fromPeer)")
    let level = fromPeer.first.flatMap { Double($0.split(separator: " ")[2]) } ?? 0
    #expect(abs(level - 50.196078) < 1e-4, "\(fromPeer)")
  }

  /// What a Gio client sees of the compass: its properties, then the headings signalled as the
  /// hub's buffer delivers 180, then 270 degrees. `claimed` is the change the claim itself
  /// brings, waited for before the first scan so that the scan cannot overtake it.
  private func compassSeenByGio(
    _ bus: TestBus, claimed: String? = nil, scans: ([UInt8]) throws -> Void
  ) throws -> [String] {
    let client = try SensorProxyClient(bus: bus)
    var seen = ["HasCompass " + (client.send("get HasCompass", waitFor: "reply") ?? "no reply")]
    #expect(client.claim("Compass"))
    if let claimed { #expect(waitUntil { client.changes.contains(claimed) }, "\(client.changes)") }
    for heading: Int32 in [180, 270] {
      try scans(scans32([heading]))
      #expect(
        waitUntil { client.changes.contains("changed CompassHeading=\(heading).0") }, "\(client.changes)")
    }
    seen.append("CompassHeading " + (client.send("get CompassHeading", waitFor: "reply") ?? "no reply"))
    return seen + client.changes
  }

  @Test("A HID hub's compass, buffered: a Gio client claims it and reads the same headings from both")
  func compassMatches() throws {
    try SensorProxyPeer.requireInstalled()
    let bus = try TestBus()
    let (run, _) = try orientd(Self.compassDevices, on: bus, fifoDevices: [0])
    let fromOrientd = try compassSeenByGio(bus, claimed: "changed CompassHeading=90.0") {
      try run.writeNode($0, device: 0)
    }
    #expect(run.stop() == 0)

    let peerBus = try TestBus()
    let peer = try SensorProxyPeer(
      Self.compassDevices, sharedBus: peerBus, fifoDevices: [0], withMonitor: false)
    #expect(waitUntil(timeout: startupPatience) { (try? peerBus.owner(of: "net.hadess.SensorProxy")) != nil })
    let fromPeer = try compassSeenByGio(peerBus) { try peer.run.writeNode($0, device: 0) }
    // iio-sensor-proxy reads the hub's buffer only: its first heading is the first the hub
    // sends after the claim (and it signals the 0 it held before). orientd also reads the
    // heading once directly when the claim starts the compass: the claim gets 90 at once.
    #expect(
      fromOrientd.filter { $0 != "changed CompassHeading=90.0" }
        == fromPeer.filter { $0 != "changed CompassHeading=0.0" })
    #expect(
      fromOrientd == [
        "HasCompass reply Get true", "CompassHeading reply Get 270.0", "changed CompassHeading=90.0",
        "changed CompassHeading=180.0", "changed CompassHeading=270.0",
      ], "\(fromOrientd)")
  }

  /// What Qt's QtSensors reports through its iio-sensor-proxy backend.
  private func qtClient(_ bus: TestBus, _ sensors: [String]) throws -> TestProcess {
    let python = "/usr/bin/python3"
    try #require(
      runToCompletion([python, "-c", "import PyQt5.QtSensors"]).status == 0,
      "PyQt5's QtSensors is missing: apt-get install python3-pyqt5.qtsensors libqt5sensors5")
    var environment = try bus.environment
    environment["QT_QPA_PLATFORM"] = "offscreen"
    return try TestProcess(
      [python, TestPaths.packageRoot + "/Tests/Fixtures/qtsensors-client.py"] + sensors,
      environment: environment)
  }

  @Test(
    "Qt's QLightSensor, QCompass and QOrientationSensor read orientd through QtSensors' iio-sensor-proxy backend as they read iio-sensor-proxy"
  )
  func qtSensors() throws {
    try SensorProxyPeer.requireInstalled()
    // The compass first: its node is the FIFO its scans are written to.
    let devices =
      Self.compassDevices + [
        FakeDevice.processedLightSensor(input: "10", id: "iio:device2")
          .with(property: "IIO_SENSOR_PROXY_TYPE", "iio-poll-als")
      ]
    func run(
      _ serve: (TestBus) throws -> (
        light: (String) throws -> Void, scans: ([UInt8]) throws -> Void, stop: () -> Void
      )
    ) throws -> [String] {
      let bus = try TestBus()
      let (light, scans, stop) = try serve(bus)
      let qt = try qtClient(bus, ["orientation", "light", "compass"])
      #expect(qt.waitFor("backend compass iio-sensor-proxy.compass"), "\(qt.stdout)\(qt.stderr)")
      #expect(qt.waitFor("light 10"), "\(qt.stdout)\(qt.stderr)")
      #expect(qt.waitFor("orientation TopUp"), "\(qt.stdout)")
      try light("25")
      #expect(qt.waitFor("light 25"), "\(qt.stdout)")
      try scans(scans32([180]))
      #expect(qt.waitFor("compass 180"), "\(qt.stdout)")
      let seen = qt.stdoutLines
      qt.kill()
      stop()
      // Each sensor's own lines, in order, a value repeated once only.
      return ["backend", "orientation", "light", "compass"].flatMap { name in
        seen.filter { $0.hasPrefix(name) }
      }
      .reduce(into: [String]()) { lines, line in if lines.last != line { lines.append(line) } }
    }
    let fromOrientd = try run { bus in
      let (daemon, _) = try orientd(devices, on: bus, fifoDevices: [0])
      return (
        { try daemon.write("in_illuminance_input", $0, device: 3) }, { try daemon.writeNode($0, device: 0) },
        { _ = daemon.stop() }
      )
    }
    let fromPeer = try run { bus in
      let peer = try SensorProxyPeer(devices, sharedBus: bus, fifoDevices: [0], withMonitor: false)
      #expect(waitUntil(timeout: startupPatience) { (try? bus.owner(of: "net.hadess.SensorProxy")) != nil })
      return (
        { try peer.run.write("in_illuminance_input", $0, device: 3) },
        { try peer.run.writeNode($0, device: 0) },
        { _ = peer.run.stop() }
      )
    }
    // Before a sensor's first reading both daemons hold iio-sensor-proxy's defaults (a light
    // level and a heading of 0, an undefined orientation), which Qt reports when it happens to
    // read them first: timing, left out. iio-sensor-proxy has no heading until the hub's
    // buffer sends one; orientd reads 90 directly when the claim starts the compass.
    let held: Set<String> = ["light 0", "compass 0", "orientation Undefined"]
    #expect(
      fromOrientd.filter { !held.contains($0) && $0 != "compass 90" }
        == fromPeer.filter { !held.contains($0) },
      "\(fromOrientd) \(fromPeer)")
    #expect(
      fromOrientd.filter { !$0.hasPrefix("backend") && !held.contains($0) } == [
        "orientation TopUp", "light 10", "light 25", "compass 90", "compass 180",
      ], "\(fromOrientd)")
  }
}

/// `info`'s value for `key` on orientd's socket at `socket`.
func infoLine(_ socket: String, _ key: String) throws -> String? {
  let client = try TestClient(path: socket)
  client.send("info\n")
  return client.readLines(through: "ok").first { $0.hasPrefix("info \(key) ") }.map {
    String($0.dropFirst("info \(key) ".count))
  }
}

/// Another process that owns `net.hadess.SensorProxy` on `bus` (as iio-sensor-proxy would)
/// until it is killed: a Gio program that asks for the name without queueing.
final class NameOwner {
  let process: TestProcess

  init(bus: TestBus) throws {
    let script = """
      import sys
      from gi.repository import Gio, GLib
      loop = GLib.MainLoop()
      Gio.bus_own_name(Gio.BusType.SYSTEM, "net.hadess.SensorProxy", Gio.BusNameOwnerFlags.NONE, None,
                       lambda *a: print("owned", flush=True), lambda *a: print("lost", flush=True))
      loop.run()
      """
    process = try TestProcess(["/usr/bin/python3", "-c", script], environment: try bus.environment)
    try #require(process.waitFor("owned"), "the name owner did not start: \(process.stderr)")
  }
}

@Suite("orientd takes no device's buffer from another owner of net.hadess.SensorProxy", .scratch)
struct BufferLeftToOwnerTests {
  @Test(
    "Queued behind another owner, orientd polls a buffered accelerometer and leaves its buffer; once the name is its, it takes the buffer"
  )
  func leavesTheBuffer() throws {
    let bus = try TestBus()
    let owner = try NameOwner(bus: bus)
    let directory = try Scratch.current().makeDirectory("daemon")
    let run = try FakeSensorRun(
      devices: [.bufferedAccelerometer(), .trigger("accel_3d-dev0", number: 0)],
      arguments: [
        "--dbus", "system", "--interval", "50", "--settle", "0", "--socket", directory + "/s", "--state",
        directory + "/state",
      ], prepare: "export DBUS_SYSTEM_BUS_ADDRESS=\(bus.address)", bufferFIFO: true)
    #expect(
      run.process.waitFor("waiting for it in the bus's queue, polling the sensors meanwhile", inStderr: true),
      "\(run.process.stderr)")
    #expect(run.process.waitFor("info: orientation normal", inStderr: true), "\(run.process.stderr)")
    // Polled, and the buffer as the kernel left it: the owner can open it.
    try run.setRaw(256, 0, 0)
    #expect(run.process.waitFor("info: orientation left-up", inStderr: true), "\(run.process.stderr)")
    #expect(run.read("buffer/enable") == "0")
    #expect(run.read("scan_elements/in_accel_x_en") == "0")
    #expect(run.read("trigger/current_trigger") == "")
    // The owner goes: the name is orientd's, and so is the buffer.
    owner.process.kill()
    #expect(
      run.process.waitFor("D-Bus: serving net.hadess.SensorProxy", inStderr: true), "\(run.process.stderr)")
    #expect(waitUntil { run.read("buffer/enable") == "1" }, "\(run.process.stderr)")
    #expect(run.read("trigger/current_trigger") == "accel_3d-dev0")
    run.writeScans([(0, 256, 0)])
    #expect(run.process.waitFor("info: orientation bottom-up", inStderr: true), "\(run.process.stderr)")
    #expect(run.stop() == 0)
  }
}
