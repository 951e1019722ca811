import Foundation
import Testing

/// orientd's `net.hadess.SensorProxy` on a private system bus (a real dbus-daemon), read by
/// real clients: `monitor-sensor` from Debian's iio-sensor-proxy package, `busctl`, and a
/// client built on Gio's GDBusProxy as GNOME's are (Tests/Fixtures/sensor-proxy-client.py).
/// The service's decisions on their own (claims, demand, which properties are signalled) are
/// tested in process, on a scripted bus: Tests/OrientDaemonTests/SensorProxyServiceInProcessTests.swift.
@Suite("net.hadess.SensorProxy on D-Bus, served by orientd to real clients", .scratch)
struct SensorProxyServiceTests {
  /// monitor-sensor's lines about the accelerometer, without the lines that depend on when it
  /// started relative to the service (waiting for it to appear).
  private func accelerometerLines(_ process: TestProcess) -> [String] {
    process.stdoutLines.map { $0.trimmingCharacters(in: .whitespaces) }.filter {
      !$0.isEmpty && !$0.contains("iio-sensor-proxy appeared") && !$0.contains("Waiting for iio-sensor-proxy")
    }
  }

  /// What monitor-sensor prints when iio-sensor-proxy sends every property again, as one
  /// PropertiesChanged, while monitor-sensor starts: iio-sensor-proxy's own start-up timing
  /// (seen once in the eight runs of the suite on 2026-12-02, on a quiet machine).
  private static let repeatedProperties = [
    "+++ Accelerometer appeared", "Accelerometer orientation changed: undefined",
    "--- Light sensor disappeared", "Light changed: 0.000000 (lux)",
    "--- Proximity sensor disappeared", "Proximity value changed: 0",
  ]

  /// The peer's lines without that block, where it follows the first three lines; orientd's
  /// lines are checked as they are, so a block like it from orientd still fails the test.
  private func withoutRepeatedProperties(_ lines: [String]) -> [String] {
    let block = Self.repeatedProperties
    guard lines.count >= 3 + block.count, Array(lines[3..<(3 + block.count)]) == block else { return lines }
    return Array(lines[..<3] + lines[(3 + block.count)...])
  }

  @Test(
    "monitor-sensor prints the same lines against orientd as against iio-sensor-proxy on the same device and turns"
  )
  func monitorSensorMatches() throws {
    try SensorProxyPeer.requireInstalled()
    let turns: [(Int, Int, Int, String)] = [
      (-256, 0, 0, "right-up"), (0, 256, 0, "bottom-up"), (256, 0, 0, "left-up"),
    ]
    let device = FakeDevice.accelerometer()

    let bus = try TestBus()
    let daemon = try bus.orientd()
    #expect(daemon.waitFor("device", "normal"))
    #expect(daemon.waitUntilServing(), "\(daemon.run.process.stderr)")
    let monitor = try TestProcess(
      [try #require(TestPaths.which("monitor-sensor"))], environment: try bus.environment)
    #expect(monitor.waitFor("changed: normal"), "\(monitor.stdout)")
    for (x, y, z, name) in turns {
      try daemon.run.setRaw(x, y, z)
      #expect(monitor.waitFor("changed: \(name)"), "\(monitor.stdout)")
    }
    let fromOrientd = accelerometerLines(monitor)
    monitor.kill()
    #expect(daemon.stop() == 0)

    // monitor-sensor starts once the name is owned, as it did against orientd: the lines it
    // prints for a service that appears while it waits depend on the timing of that broadcast.
    let peer = try SensorProxyPeer([device.forSensorProxy], monitorOnceNamed: true)
    #expect(peer.run.process.waitFor("changed: normal"), "\(peer.run.process.stdout)")
    for (x, y, z, name) in turns {
      try peer.run.setRaw(x, y, z)
      #expect(peer.run.process.waitFor("changed: \(name)"), "\(peer.run.process.stdout)")
    }
    let fromPeer = withoutRepeatedProperties(accelerometerLines(peer.run.process))
    #expect(fromOrientd == fromPeer)
    #expect(fromOrientd.first == "=== Has accelerometer (orientation: undefined)", "\(fromOrientd)")
    #expect(fromOrientd.count == 7, "\(fromOrientd)")
  }

  @Test(
    "A claim brings the accelerometer up to date, and each change sends one PropertiesChanged with only what changed"
  )
  func propertiesChangedPerChange() throws {
    let bus = try TestBus()
    let daemon = try bus.servingOrientd()
    let client = try SensorProxyClient(bus: bus)
    #expect(client.send("get AccelerometerOrientation", waitFor: "reply") == "reply Get undefined")
    #expect(client.claim())
    #expect(
      client.send("", waitFor: "changed", count: 1)
        == "changed AccelerometerOrientation=normal AccelerometerTilt=vertical")
    try daemon.run.setRaw(-256, 0, 0)
    #expect(daemon.waitFor("device", "right-up"))
    #expect(waitUntil { client.changes.count >= 2 })
    // Lying on its back: the tilt changes, the four-way orientation stays right-up.
    try daemon.run.setRaw(0, 0, -256)
    #expect(daemon.waitFor("device", "face-up"))
    #expect(waitUntil { client.changes.count >= 3 })
    // A reply comes after every signal orientd sent before it: nothing more is on its way.
    #expect(client.send("get AccelerometerTilt", waitFor: "reply") == "reply Get face-up")
    #expect(
      client.changes == [
        "changed AccelerometerOrientation=normal AccelerometerTilt=vertical",
        "changed AccelerometerOrientation=right-up", "changed AccelerometerTilt=face-up",
      ])
    #expect(daemon.stop() == 0)
  }

  @Test("--dbus session serves the name on the session bus that DBUS_SESSION_BUS_ADDRESS names")
  func sessionBus() throws {
    let bus = try TestBus()
    let daemon = try WatchedDaemon(
      [.accelerometer()], extra: ["--dbus", "session"],
      prepare: "export DBUS_SESSION_BUS_ADDRESS=\(bus.address); unset DBUS_SYSTEM_BUS_ADDRESS")
    #expect(
      daemon.run.process.waitFor("D-Bus: serving net.hadess.SensorProxy on the session bus", inStderr: true),
      "\(daemon.run.process.stderr)")
    #expect(try bus.owner(of: "net.hadess.SensorProxy") != nil)
    #expect(daemon.stop() == 0)
  }

  @Test("After the last release nothing is signalled and the value stays; a new claim brings it up to date")
  func claimAndRelease() throws {
    let bus = try TestBus()
    let daemon = try bus.servingOrientd()
    let claimer = try SensorProxyClient(bus: bus)
    // An observer that claims nothing still receives the broadcast signals.
    let observer = try SensorProxyClient(bus: bus)
    #expect(claimer.claim())
    #expect(
      observer.send("", waitFor: "changed", count: 1)?.contains("AccelerometerOrientation=normal") == true)
    #expect(claimer.send("release Accelerometer", waitFor: "reply") == "reply ReleaseAccelerometer")
    // Released twice, or never claimed: no error, as iio-sensor-proxy answers.
    #expect(claimer.send("release Accelerometer", waitFor: "reply") == "reply ReleaseAccelerometer")
    #expect(claimer.send("release Light", waitFor: "reply") == "reply ReleaseLight")
    try daemon.run.setRaw(256, 0, 0)
    // The premise: orientd saw the turn and published it on its socket.
    #expect(daemon.waitFor("device", "left-up"))
    #expect(observer.send("get AccelerometerOrientation", waitFor: "reply") == "reply Get normal")
    #expect(observer.changes.count == 1, "\(observer.changes)")
    #expect(claimer.claim())
    #expect(observer.send("", waitFor: "changed", count: 2) == "changed AccelerometerOrientation=left-up")
    #expect(daemon.stop() == 0)
  }

  @Test(
    "A client that claims and leaves at once (busctl), even before its claim is read, leaves no claim behind")
  func shortLivedClaimer() throws {
    let bus = try TestBus()
    let daemon = try bus.servingOrientd()
    let call = [
      "call", "net.hadess.SensorProxy", "/net/hadess/SensorProxy", "net.hadess.SensorProxy",
      "ClaimAccelerometer",
    ]
    // Waiting for the reply, then leaving; and leaving without waiting, so that the client is
    // gone before orientd can watch it (the bus has no NameOwnerChanged left to send then).
    for _ in 0..<3 {
      let result = try bus.busctl(call)
      #expect(result.status == 0, "\(result.stderr)")
      let gone = try bus.busctl(["--expect-reply=no"] + call)
      #expect(gone.status == 0, "\(gone.stderr)")
    }
    // The premise: a claim that stays is counted (a client that is still there).
    let client = try SensorProxyClient(bus: bus)
    #expect(client.claim())
    #expect(
      waitUntil { (try? daemon.busInfo())?.contains("; 1 client claims") == true },
      "\((try? daemon.busInfo()) ?? "")")
    client.process.kill()
    #expect(
      waitUntil { (try? daemon.busInfo())?.contains("; 0 clients claim") == true },
      "\((try? daemon.busInfo()) ?? "")")
    #expect(daemon.stop() == 0)
  }

  @Test("dbus-orientation = screen follows orientctl lock; device does not")
  func screenFollowsLock() throws {
    for source in ["screen", "device"] {
      let bus = try TestBus()
      let daemon = try bus.servingOrientd(extra: ["--dbus-orientation", source])
      let client = try SensorProxyClient(bus: bus)
      #expect(client.claim())
      #expect(
        client.send("", waitFor: "changed", count: 1)?.contains("AccelerometerOrientation=normal") == true)
      let lock = try runToCompletion([TestPaths.orientctl, "--socket", daemon.socket, "lock", "left-up"])
      #expect(lock.status == 0, "\(lock.stderr)")
      #expect(daemon.waitFor("orientation", "left-up"))
      let expected = source == "screen" ? "left-up" : "normal"
      #expect(
        client.send("get AccelerometerOrientation", waitFor: "reply") == "reply Get \(expected)", "\(source)")
      #expect(client.changes.count == (source == "screen" ? 2 : 1), "\(source): \(client.changes)")
      #expect(daemon.stop() == 0)
    }
  }

  @Test(
    "The introspection XML parses (gdbus) and lists both objects, their methods and typed properties, and the parent nodes"
  )
  func introspection() throws {
    let bus = try TestBus()
    let daemon = try bus.servingOrientd()
    let gdbus = try #require(TestPaths.which("gdbus"), "gdbus is missing: apt-get install libglib2.0-bin")
    // gdbus parses the XML as GDBus clients do, and fails on XML that does not parse.
    func introspect(_ path: String) throws -> IntrospectedNode {
      let result = try runToCompletion([
        gdbus, "introspect", "--address", bus.address, "--dest", "net.hadess.SensorProxy", "--object-path",
        path,
      ])
      try #require(result.status == 0, "\(result.stderr)")
      return IntrospectedNode(gdbusOutput: result.stdout)
    }
    let main = try introspect("/net/hadess/SensorProxy")
    let interface = try #require(main.interfaces["net.hadess.SensorProxy"])
    #expect(
      Set(interface.methods)
        == [
          "ClaimAccelerometer", "ReleaseAccelerometer", "ClaimLight", "ReleaseLight", "ClaimProximity",
          "ReleaseProximity",
        ])
    #expect(
      interface.properties == [
        "HasAccelerometer": "b", "AccelerometerOrientation": "s", "AccelerometerTilt": "s",
        "HasAmbientLight": "b",
        "LightLevelUnit": "s", "LightLevel": "d", "HasProximity": "b", "ProximityNear": "b",
      ])
    for standard in ["Properties", "Introspectable", "Peer"] {
      #expect(main.interfaces["org.freedesktop.DBus.\(standard)"] != nil, "\(standard)")
    }
    #expect(main.children == ["Compass"])
    let compass = try #require(
      try introspect("/net/hadess/SensorProxy/Compass").interfaces["net.hadess.SensorProxy.Compass"])
    #expect(Set(compass.methods) == ["ClaimCompass", "ReleaseCompass"])
    #expect(compass.properties == ["HasCompass": "b", "CompassHeading": "d"])
    #expect(try introspect("/").children == ["net"])
    #expect(try introspect("/net").children == ["hadess"])
    #expect(try introspect("/net/hadess").children == ["SensorProxy"])
    #expect(daemon.stop() == 0)
  }

  @Test(
    "Wrong signatures, unknown methods, properties and objects get D-Bus errors, and orientd keeps serving")
  func badCalls() throws {
    let bus = try TestBus()
    let daemon = try bus.servingOrientd()
    let client = try SensorProxyClient(bus: bus)
    #expect(
      client.send("call ClaimAccelerometer s x", waitFor: "error")
        == "error org.freedesktop.DBus.Error.InvalidArgs")
    #expect(
      client.send("call Frobnicate", waitFor: "error") == "error org.freedesktop.DBus.Error.UnknownMethod")
    #expect(
      client.send("get NoSuchProperty", waitFor: "error")
        == "error org.freedesktop.DBus.Error.UnknownProperty")
    let set = try bus.busctl([
      "set-property", "net.hadess.SensorProxy", "/net/hadess/SensorProxy", "net.hadess.SensorProxy",
      "AccelerometerOrientation", "s", "left-up",
    ])
    #expect(set.status != 0 && set.stderr.contains("is not writable"), "\(set.stderr)")
    let object = try bus.busctl([
      "call", "net.hadess.SensorProxy", "/net/hadess/Nothing", "net.hadess.SensorProxy", "ClaimAccelerometer",
    ])
    #expect(object.status != 0, "\(object.stdout)")
    // Still serving, on both faces.
    #expect(client.claim())
    #expect(client.send("get AccelerometerOrientation", waitFor: "reply") == "reply Get normal")
    #expect(try daemon.get("orientation") == "normal")
    #expect(daemon.stop() == 0)
  }

  @Test("A flood of claims and releases from one client is all answered and leaves one record at most")
  func claimFlood() throws {
    let bus = try TestBus()
    let daemon = try bus.servingOrientd()
    let client = try SensorProxyClient(bus: bus)
    #expect(
      client.send("flood Accelerometer 5000", waitFor: "flooded", count: 1)?.hasPrefix(
        "flooded 10000 answered, 0 errors") == true)
    #expect(client.claim())
    let info = try daemon.busInfo()
    #expect(info.contains("; 1 client claims"), "\(info)")
    #expect(try daemon.get("sensor") == "online")
    #expect(daemon.stop() == 0)
  }

  @Test(
    "Behind iio-sensor-proxy orientd waits in the bus's queue, says so once, and takes the name when it leaves"
  )
  func queuedBehindIIOSensorProxy() throws {
    try SensorProxyPeer.requireInstalled()
    let bus = try TestBus()
    let peer = try SensorProxyPeer([FakeDevice.accelerometer().forSensorProxy], sharedBus: bus)
    #expect(peer.run.process.waitFor("=== Has accelerometer"), "\(peer.run.process.stdout)")
    let proxyOwner = try #require(try bus.owner(of: "net.hadess.SensorProxy"))
    let daemon = try bus.orientd()
    #expect(
      daemon.run.process.waitFor("waiting for it in the bus's queue", inStderr: true),
      "\(daemon.run.process.stderr)")
    #expect(try bus.owner(of: "net.hadess.SensorProxy") == proxyOwner)
    #expect(try daemon.get("orientation") == "normal", "the socket serves meanwhile")
    // doctor names the owner by its program, not by the kernel's 15-byte command name.
    #expect(
      waitUntil {
        let doctor = try? runToCompletion([TestPaths.orientctl, "--socket", daemon.socket, "doctor"])
        return doctor?.stdout.contains("system bus, owned by iio-sensor-proxy (pid ") == true
      }, "\((try? runToCompletion([TestPaths.orientctl, "--socket", daemon.socket, "doctor"]).stdout) ?? "")")
    _ = peer.run.stop()
    #expect(daemon.waitUntilServing(), "\(daemon.run.process.stderr)")
    let owner = try #require(try bus.owner(of: "net.hadess.SensorProxy"))
    #expect(owner != proxyOwner)
    let client = try SensorProxyClient(bus: bus)
    #expect(client.claim())
    #expect(client.send("get AccelerometerOrientation", waitFor: "reply") == "reply Get normal")
    #expect(occurrences(of: "in the bus's queue", in: daemon.run.process.stderr) == 1)
    #expect(daemon.stop() == 0)
  }

  @Test(
    "An iio-sensor-proxy started while orientd holds the name goes away by itself, and its clients get orientd"
  )
  func iioSensorProxyStartedBehindOrientd() throws {
    try SensorProxyPeer.requireInstalled()
    let bus = try TestBus()
    let daemon = try bus.servingOrientd()
    let owner = try #require(try bus.owner(of: "net.hadess.SensorProxy"))
    let peer = try SensorProxyPeer([FakeDevice.accelerometer().forSensorProxy], sharedBus: bus)
    // iio-sensor-proxy 3.0 asks for the name without queueing and exits, status 0, when it is taken.
    #expect(waitUntil { peer.proxyExitStatus != nil })
    #expect(peer.proxyExitStatus == "0")
    #expect(peer.run.process.waitFor("changed: normal"), "\(peer.run.process.stdout)")
    #expect(try bus.owner(of: "net.hadess.SensorProxy") == owner)
    try daemon.run.setRaw(-256, 0, 0)
    #expect(
      peer.run.process.waitFor("changed: right-up"),
      "monitor-sensor follows orientd: \(peer.run.process.stdout)")
    #expect(daemon.stop() == 0)
  }

  @Test(
    "A bus killed and started again: orientd logs it, serves its socket meanwhile, and comes back on the bus")
  func busRestart() throws {
    let bus = try TestBus()
    let daemon = try bus.servingOrientd()
    let before = try SensorProxyClient(bus: bus)
    #expect(before.claim())
    #expect(before.send("get AccelerometerOrientation", waitFor: "reply") == "reply Get normal")
    bus.kill()
    #expect(
      daemon.run.process.waitFor("D-Bus: lost the system bus", inStderr: true), "\(daemon.run.process.stderr)"
    )
    try daemon.run.setRaw(256, 0, 0)
    #expect(daemon.waitFor("device", "left-up"))
    try bus.start()
    #expect(daemon.waitUntilServing(count: 2), "\(daemon.run.process.stderr)")
    let client = try SensorProxyClient(bus: bus)
    // To the new bus's clients orientd is a service that has just started: nothing claimed yet.
    #expect(client.send("get AccelerometerOrientation", waitFor: "reply") == "reply Get undefined")
    #expect(client.claim())
    #expect(client.send("get AccelerometerOrientation", waitFor: "reply") == "reply Get left-up")
    #expect(daemon.stop() == 0)
  }

  @Test("No bus at start: orientd says so, serves its socket, and joins the bus once it appears")
  func noBusAtStart() throws {
    let bus = try TestBus()
    bus.kill()
    let daemon = try bus.orientd()
    #expect(daemon.waitFor("device", "normal"))
    #expect(
      daemon.run.process.waitFor("D-Bus: cannot connect to the system bus", inStderr: true),
      "\(daemon.run.process.stderr)")
    #expect(try daemon.get("orientation") == "normal")
    try bus.start()
    #expect(daemon.waitUntilServing(), "\(daemon.run.process.stderr)")
    let client = try SensorProxyClient(bus: bus)
    #expect(client.send("get HasAccelerometer", waitFor: "reply") == "reply Get true")
    #expect(daemon.stop() == 0)
  }
}

/// One object as `gdbus introspect` shows it once GDBus has parsed the introspection XML:
/// its interfaces (methods, and properties with their types) and its child nodes.
struct IntrospectedNode {
  struct Interface {
    var methods: [String] = []
    var properties: [String: String] = [:]
  }

  var interfaces: [String: Interface] = [:]
  var children: [String] = []

  /// Reads gdbus's outline: two spaces per level; `methods:` and `properties:` open sections.
  init(gdbusOutput: String) {
    var current: String?
    var section = ""
    for line in gdbusOutput.split(separator: "\n").map(String.init) {
      let trimmed = line.trimmingCharacters(in: .whitespaces)
      if line.hasPrefix("  node ") {
        children.append(String(trimmed.dropFirst("node ".count).dropLast(" {".count)))
      } else if line.hasPrefix("  interface ") {
        let name = String(trimmed.dropFirst("interface ".count).dropLast(" {".count))
        interfaces[name] = Interface()
        current = name
      } else if line.hasPrefix("    ") && !line.hasPrefix("      ") {
        section = trimmed
      } else if line.hasPrefix("      "), !line.hasPrefix("       "), let current {
        if section == "methods:", let name = trimmed.split(separator: "(").first {
          interfaces[current]?.methods.append(String(name))
        } else if section == "properties:" {
          // `readonly s AccelerometerOrientation = 'undefined';`
          let words = trimmed.split(separator: " ")
          if words.count >= 3 { interfaces[current]?.properties[String(words[2])] = String(words[1]) }
        }
      }
    }
  }
}
