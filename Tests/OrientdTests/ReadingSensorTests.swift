import Foundation
import Testing

/// The light sensor, the proximity sensor and the compass through orientd's socket, on
/// umockdev devices read with real libiio: each is read only while a client hears it or asks
/// for its value, and its value follows the device.
@Suite("Light, proximity and heading on the socket", .scratch)
struct ReadingSensorTests {
  /// orientd on `devices` (a polled accelerometer first), serving its socket once it has
  /// its orientation.
  private func daemon(_ devices: [FakeDevice], extra: [String] = [], fifoDevices: [Int] = []) throws -> (
    run: FakeSensorRun, socket: String
  ) {
    let directory = try Scratch.current().makeDirectory("daemon")
    let socket = directory + "/s"
    let run = try FakeSensorRun(
      devices: devices,
      arguments: ["--interval", "50", "--settle", "0", "--verbose"] + extra + [
        "--socket", socket, "--state", directory + "/state",
      ], fifoDevices: fifoDevices)
    try #require(
      run.process.waitFor("listening on", inStderr: true), "orientd did not start: \(run.process.stderr)")
    // The accelerometer's first orientation comes before any client: a greeting is then whole.
    try #require(run.process.waitFor("info: orientation normal", inStderr: true), "\(run.process.stderr)")
    return (run, socket)
  }

  /// A client past its greeting.
  private func client(_ socket: String) throws -> TestClient {
    let client = try TestClient(path: socket)
    let greeting = client.readLines(through: "mode unknown")
    try #require(greeting.last == "mode unknown", "no greeting: \(greeting)")
    return client
  }

  /// Reads lines until one that starts with `prefix`; returns it.
  private func next(_ client: TestClient, _ prefix: String) -> String? {
    while let line = client.readLine() {
      if line.hasPrefix(prefix) { return line }
    }
    return nil
  }

  /// `info`'s line for `key`.
  private func info(_ socket: String, _ key: String) throws -> String? {
    let asker = try TestClient(path: socket)
    asker.send("info\n")
    return asker.readLines(through: "ok").first { $0.hasPrefix("info \(key) ") }.map {
      String($0.dropFirst("info \(key) ".count))
    }
  }

  /// Waits until the device's `file` is read at least once after this call; false if it is not.
  private func waitForRead(_ run: FakeSensorRun, _ file: String, device: Int, timeout: Double = patience)
    throws
    -> Bool
  {
    try run.markUnread(file, device: device)
    return waitUntil(timeout: timeout) { run.hasBeenRead(file, device: device) }
  }

  @Test("A subscriber gets the polled light level, and each real change of it")
  func pollLight() throws {
    let (run, socket) = try daemon([.accelerometer(), .processedLightSensor(input: "10")])
    let client = try client(socket)
    client.send("subscribe light\n")
    #expect(next(client, "light ") == "light 10 lux")
    try run.write("in_illuminance_input", "30", device: 1)
    #expect(next(client, "light ") == "light 30 lux")
    client.send("format json\n")
    try run.write("in_illuminance_input", "45.5", device: 1)
    #expect(next(client, "{\"event\":\"light\"") == "{\"event\":\"light\",\"value\":45.5,\"unit\":\"lux\"}")
    #expect(run.stop() == 0)
  }

  @Test(
    "get asks a resting sensor for its value; readings with no sensor are none, and the orientation state is as before"
  )
  func getReadings() throws {
    let (run, socket) = try daemon([.accelerometer(), .processedLightSensor(input: "12.25")])
    let client = try client(socket)
    client.send("get light,proximity,heading\n")
    #expect(client.readLines(through: "ok") == ["light 12.25 lux", "proximity none", "heading none", "ok"])
    client.send("get\n")
    let state = client.readLines(through: "ok")
    #expect(
      state.first == "sensor online" && state.count == 7, "the plain get is the orientation state: \(state)")
    client.send("get orientation,light\n")
    #expect(client.readLines(through: "ok") == ["orientation normal", "light 12.25 lux", "ok"])
    #expect(run.stop() == 0)
  }

  @Test("Nothing reads the light sensor while nobody needs it; a subscriber makes it read again")
  func readOnlyWhileNeeded() throws {
    let (run, socket) = try daemon([.accelerometer(), .processedLightSensor()])
    // Nobody heard it yet: it was never started. The premise that reads would show: they do
    // once a client subscribes.
    try run.markUnread("in_illuminance_input", device: 1)
    let client = try client(socket)
    client.send("subscribe light\n")
    #expect(next(client, "light ") == "light 10 lux")
    #expect(try waitForRead(run, "in_illuminance_input", device: 1))
    #expect(try info(socket, "light-sensor")?.hasSuffix("read now") == true)
    client.send("subscribe orientation\n")
    // After its linger (5 s) the sensor rests: info says so, and from then on no read comes.
    #expect(
      waitUntil(timeout: patience + 5) {
        (try? info(socket, "light-sensor"))?.hasSuffix("(nothing needs it)") == true
      })
    try run.markUnread("in_illuminance_input", device: 1)
    // Ten poll intervals (0.1 s) in which a read would have shown.
    #expect(!waitUntil(timeout: 1) { run.hasBeenRead("in_illuminance_input", device: 1) })
    client.send("subscribe light\n")
    #expect(next(client, "light ") == "light 10 lux", "a sensor started again publishes its value afresh")
    #expect(run.stop() == 0)
  }

  @Test(
    "A light level that moves within its noise is published once; a step at the first reading that shows it")
  func flicker() throws {
    let (run, socket) = try daemon([.accelerometer(), .rawLightSensor(raw: "1000", scale: "0.1")])
    let client = try client(socket)
    client.send("subscribe light\n")
    #expect(next(client, "light ") == "light 100 lux")
    // ±3 %, one value per poll.
    for raw in [1020, 985, 1030, 972, 1011, 990, 1025, 975] {
      try run.write("in_illuminance_raw", "\(raw)", device: 1)
      #expect(try waitForRead(run, "in_illuminance_raw", device: 1))
    }
    try run.write("in_illuminance_raw", "1500", device: 1)
    #expect(next(client, "light ") == "light 150 lux", "the noise was published, or the step was not")
    #expect(run.stop() == 0)
  }

  @Test(
    "A raw light level is (raw + offset) * scale; a sensor with no scale is taken as lux with a warning naming it"
  )
  func rawConversion() throws {
    let (run, socket) = try daemon([
      .accelerometer(), .rawLightSensor(raw: "100", scale: "0.5", offset: "10"),
    ])
    let client = try client(socket)
    client.send("get light\n")
    #expect(client.readLines(through: "ok") == ["light 55 lux", "ok"])
    #expect(run.stop() == 0)

    let (unscaled, unscaledSocket) = try daemon([.accelerometer(), .rawLightSensor(raw: "42", scale: nil)])
    let asker = try self.client(unscaledSocket)
    asker.send("get light\n")
    #expect(asker.readLines(through: "ok") == ["light 42 lux", "ok"])
    #expect(
      unscaled.process.stderr.contains("iio:device1 (ltr-test): no usable scale for in_illuminance_raw"),
      "\(unscaled.process.stderr)")
    #expect(unscaled.stop() == 0)
  }

  @Test(
    "A negative or garbage light reading is skipped with a warning naming the device; orientation goes on")
  func badReadings() throws {
    let (run, socket) = try daemon([.accelerometer(), .rawLightSensor(raw: "200", scale: "1")])
    let client = try client(socket)
    client.send("subscribe all,light\n")
    #expect(next(client, "light ") == "light 200 lux")
    try run.write("in_illuminance_raw", "-5", device: 1)
    #expect(
      run.process.waitFor(
        "iio:device1 (ltr-test): in_illuminance_raw: reading -5 gives a negative light level", inStderr: true),
      "\(run.process.stderr)")
    try run.write("in_illuminance_raw", "abc", device: 1)
    #expect(run.process.waitFor("iio:device1 (ltr-test): in_illuminance_raw holds 'abc'", inStderr: true))
    try run.setRaw(256, 0, 0)
    #expect(next(client, "orientation ") == "orientation left-up", "the accelerometer is still served")
    try run.write("in_illuminance_raw", "400", device: 1)
    #expect(next(client, "light ") == "light 400 lux", "the light sensor is still read")
    #expect(run.stop() == 0)
  }

  @Test(
    "A proximity sensor is near above its near level with iio-sensor-proxy's margins, from udev or sysfs",
    arguments: ["udev", "sysfs"])
  func proximity(source: String) throws {
    let device = FakeDevice.proximitySensor(
      raw: "256", nearLevelAttribute: source == "sysfs" ? "128" : nil,
      nearLevelProperty: source == "udev" ? "128" : nil)
    let (run, socket) = try daemon([.accelerometer(), device])
    let client = try client(socket)
    client.send("subscribe proximity\n")
    #expect(next(client, "proximity ") == "proximity near")
    try run.write("in_proximity_raw", "0", device: 1)
    #expect(next(client, "proximity ") == "proximity far")
    // Just above the level: near once a reading above it was seen (iio-sensor-proxy's margin).
    try run.write("in_proximity_raw", "129", device: 1)
    #expect(next(client, "proximity ") == "proximity near")
    // Just below the level, after readings above it: still near (within the 10 % margin).
    try run.write("in_proximity_raw", "120", device: 1)
    #expect(try waitForRead(run, "in_proximity_raw", device: 1))
    #expect(try waitForRead(run, "in_proximity_raw", device: 1))
    try run.write("in_proximity_raw", "100", device: 1)
    #expect(next(client, "proximity ") == "proximity far")
    #expect(run.stop() == 0)
  }

  @Test("A proximity sensor with no near level is refused with a warning naming it; the rest is served")
  func proximityWithoutNearLevel() throws {
    let (run, socket) = try daemon([.accelerometer(), .proximitySensor(raw: "256")])
    #expect(
      run.process.waitFor(
        "iio:device2 (IIO Test Proximity Sensor): not used as the proximity sensor: no near level",
        inStderr: true),
      "\(run.process.stderr)")
    let client = try client(socket)
    client.send("get proximity,orientation\n")
    #expect(client.readLines(through: "ok") == ["orientation normal", "proximity none", "ok"])
    #expect(try info(socket, "sensor-skipped")?.contains("no near level") == true)
    #expect(run.stop() == 0)
  }

  @Test("A human presence sensor (HID prox) is near while someone is there")
  func presence() throws {
    let (run, socket) = try daemon([.accelerometer(), .presenceSensor(raw: 1)])
    let client = try client(socket)
    client.send("subscribe proximity\n")
    #expect(next(client, "proximity ") == "proximity near")
    try run.write("in_proximity_raw", "0", device: 1)
    #expect(next(client, "proximity ") == "proximity far")
    #expect(run.stop() == 0)
  }

  @Test("Apple's SMC light sensor is read through hwmon, in the vendor's unit")
  func hwmonLight() throws {
    let (run, socket) = try daemon([.accelerometer()] + FakeDevice.appleLightSensor("(128,64)"))
    let client = try client(socket)
    client.send("subscribe light\n")
    #expect(next(client, "light ") == "light 50.2 vendor")
    try run.write("light", "(255,255)", device: 1)
    #expect(next(client, "light ") == "light 100 vendor")
    #expect(run.stop() == 0)
  }

  @Test("A magnetometer without a heading is no compass, and says so naming the device")
  func magnetometerWithoutHeading() throws {
    var magnetometer = FakeDevice(
      sysfsPath: "/devices/platform/magn/iio:device1", id: "iio:device1",
      attributes: [
        ("name", "ak8975"), ("in_magn_x_raw", "10"), ("in_magn_y_raw", "0"), ("in_magn_z_raw", "0"),
        ("in_magn_scale", "0.3"),
      ])
    magnetometer = magnetometer.with(attribute: "in_magn_x_scale", "0.3")
    let (run, socket) = try daemon([.accelerometer(), magnetometer])
    #expect(
      run.process.waitFor(
        "iio:device1 (ak8975): not used as the compass: a magnetometer without", inStderr: true),
      "\(run.process.stderr)")
    let client = try client(socket)
    client.send("get heading\n")
    #expect(client.readLines(through: "ok") == ["heading none", "ok"])
    #expect(run.stop() == 0)
  }

  @Test(
    "A HID hub's light sensor is read through its own buffer and trigger, once directly at start, and put back after"
  )
  func bufferedLight() throws {
    let (run, socket) = try daemon(
      [
        .hubLightSensor(raw: 1000),
        .accelerometer(path: "/devices/platform/accel/iio:device1", id: "iio:device1"),
        .trigger("als-dev0", number: 0),
      ],
      fifoDevices: [0])
    let client = try client(socket)
    client.send("subscribe light\n")
    // The direct read at start: in_intensity_both_raw 1000 through the scale of 0.1.
    #expect(next(client, "light ") == "light 100 lux")
    #expect(waitUntil { run.read("scan_elements/in_intensity_both_en") == "1" })
    #expect(run.read("buffer/enable") == "1")
    #expect(run.read("trigger/current_trigger") == "als-dev0")
    #expect(run.read("scan_elements/in_timestamp_en") == "0", "only the channel read is in the scans")
    try run.writeNode(scans32([2000]), device: 0)
    #expect(next(client, "light ") == "light 200 lux")
    // Several scans at one wake-up: the newest is the level.
    try run.writeNode(scans32([2010, 1500, 3000]), device: 0)
    #expect(next(client, "light ") == "light 300 lux")
    #expect(try info(socket, "light-sensor")?.contains("buffer intensity_both, trigger als-dev0") == true)
    client.send("subscribe orientation\n")
    // Resting after the linger, the buffer is closed and the device as it was.
    // libiio ends the buffer first, then orientd puts the enables back.
    #expect(
      waitUntil(timeout: patience + 5) {
        run.read("buffer/enable") == "0" && run.read("scan_elements/in_intensity_both_en") == "0"
          && run.read("scan_elements/in_timestamp_en") == "1"
      }, "\(run.read("buffer/enable")) \(run.read("scan_elements/in_intensity_both_en"))")
    #expect(run.stop() == 0)
  }

  @Test("A HID hub's compass gives its tilt-compensated heading through its buffer")
  func bufferedCompass() throws {
    let (run, socket) = try daemon(
      [
        .hubCompass(heading: 90),
        .accelerometer(path: "/devices/platform/accel/iio:device1", id: "iio:device1"),
        .trigger("magn_3d-dev0", number: 0),
      ],
      fifoDevices: [0])
    let client = try client(socket)
    client.send("subscribe heading\n")
    #expect(next(client, "heading ") == "heading 90")
    // 16 bits used of 32 stored: the upper half holds something else, which must be masked.
    try run.writeNode([0xb4, 0x00, 0xee, 0xff], device: 0)
    #expect(next(client, "heading ") == "heading 180")
    // Less than a degree is no move.
    try run.writeNode(scans32([180, 181, 270]), device: 0)
    #expect(next(client, "heading ") == "heading 270")
    #expect(run.stop() == 0)
  }

  @Test("orientd --list and orientctl doctor show each sensor found, how it is read, and why one is not used")
  func listAndDoctor() throws {
    let devices: [FakeDevice] = [
      .accelerometer(), .rawLightSensor(raw: "100", scale: "0.5"), .proximitySensor(raw: "0"),
      .presenceSensor(raw: 0),
    ]
    let listing = try runWithFakeDevices(devices, ["--list"])
    #expect(listing.status == 0, "\(listing.stderr)")
    #expect(
      listing.stdout.contains("* ambient light sensor: iio:device1 (ltr-test)  (would be used)"),
      "\(listing.stdout)")
    #expect(listing.stdout.contains("poll in_illuminance_raw"), "\(listing.stdout)")
    #expect(
      listing.stdout.contains("  proximity sensor: iio:device2 (IIO Test Proximity Sensor)  (not used)"),
      "\(listing.stdout)")
    #expect(listing.stdout.contains("no near level"), "\(listing.stdout)")
    #expect(
      listing.stdout.contains("* proximity sensor: iio:device3 (prox)  (would be used)"), "\(listing.stdout)")
    #expect(listing.stdout.contains("near while someone is present"), "\(listing.stdout)")
    #expect(listing.stdout.contains("  compass: none"), "\(listing.stdout)")

    let (run, socket) = try daemon(devices)
    let doctor = try runToCompletion([TestPaths.orientctl, "--socket", socket, "doctor"])
    #expect(doctor.status == 0, "\(doctor.stderr)")
    #expect(
      doctor.stdout.contains(
        "  Ambient light: iio:device1 (ltr-test): poll in_illuminance_raw every 100 ms; resting (nothing needs it)."
      ),
      "\(doctor.stdout)")
    #expect(doctor.stdout.contains("  Proximity: iio:device3 (prox): poll in_proximity_raw every 500 ms;"))
    #expect(doctor.stdout.contains("  Compass: none."))
    #expect(
      doctor.stdout.contains(
        "  Not used: iio:device2 (IIO Test Proximity Sensor) as the proximity sensor: no near level"),
      "\(doctor.stdout)")
    // Debian's iio-sensor-proxy is installed where the tests run (the peer they compare with).
    #expect(doctor.stdout.contains("iio-sensor-proxy: installed"), "\(doctor.stdout)")
    #expect(run.stop() == 0)
  }

  @Test(
    "The heading is kept for root, orientd's user and geoclue: another user's subscription and get are refused"
  )
  func headingPermission() throws {
    let (run, socket) = try daemon(
      [
        .hubCompass(heading: 90),
        .accelerometer(path: "/devices/platform/accel/iio:device1", id: "iio:device1"),
        .trigger("magn_3d-dev0", number: 0),
      ],
      fifoDevices: [0])
    // Other users may reach the socket (its mode lets them connect).
    Unprivileged.openScratch(try Scratch.current())
    chmod((socket as NSString).deletingLastPathComponent, 0o755)
    let nobody = try runToCompletion(
      try Unprivileged.command([TestPaths.orientctl, "--socket", socket, "get", "heading"]))
    #expect(nobody.status == 77, "\(nobody)")
    #expect(
      nobody.stderr.contains("the compass heading is for root, orientd's user and geoclue"),
      "\(nobody.stderr)")
    let light = try runToCompletion(
      try Unprivileged.command([TestPaths.orientctl, "--socket", socket, "get", "light"]))
    #expect(light.status == 0 && light.stdout == "none\n", "other readings are anyone's: \(light)")
    // The premise: root gets the heading from the same daemon.
    let root = try runToCompletion([TestPaths.orientctl, "--socket", socket, "get", "heading"])
    #expect(root.stdout == "90\n", "\(root)")
    #expect(run.stop() == 0)
  }

  @Test(
    "A front proximity switch (SW_FRONT_PROXIMITY) is the proximity sensor: near while it is on, read from its events"
  )
  func proximitySwitch() throws {
    let directory = try Scratch.current().makeDirectory("daemon")
    let socket = directory + "/s"
    let run = try FakeInputRun(
      devices: ["proximity"], others: [.accelerometer()],
      program: [
        TestPaths.orientd, "--interval", "50", "--settle", "0", "--socket", socket, "--state",
        directory + "/state",
      ])
    #expect(
      run.logs("reading the proximity sensor /dev/input/event9 (Front proximity): SW_FRONT_PROXIMITY events"))
    #expect(run.logs("info: orientation normal"), "\(run.process.stderr)")
    let client = try client(socket)
    client.send("subscribe proximity\n")
    #expect(next(client, "proximity ") == "proximity far")
    run.send("switch proximity proximity 1")
    #expect(next(client, "proximity ") == "proximity near")
    run.send("switch proximity proximity 0")
    #expect(next(client, "proximity ") == "proximity far")
    // Unplugged, it is gone: no proximity sensor.
    run.send("unplug proximity")
    #expect(next(client, "proximity ") == "proximity none", "\(run.process.stderr)")
    #expect(run.stop() == 0)
  }

  @Test(
    "orientctl prints the readings: get light|proximity|heading in text and JSON, and monitor in both formats and as monitor-sensor"
  )
  func orientctlReadings() throws {
    let (run, socket) = try daemon([
      .accelerometer(), .processedLightSensor(input: "350.5"),
      .proximitySensor(raw: "256", nearLevelProperty: "128"),
    ])
    func orientctl(_ arguments: String...) throws -> String {
      try runToCompletion([TestPaths.orientctl, "--socket", socket] + arguments).stdout
    }
    #expect(try orientctl("get", "light") == "350.5 lux\n")
    #expect(try orientctl("get", "light", "--json") == "{\"level\":350.5,\"unit\":\"lux\"}\n")
    #expect(try orientctl("get", "proximity") == "near\n")
    #expect(try orientctl("get", "proximity", "--json") == "\"near\"\n")
    #expect(try orientctl("get", "heading") == "none\n")
    #expect(try orientctl("get", "heading", "--json") == "\"none\"\n")

    let text = try TestProcess([TestPaths.orientctl, "--socket", socket, "monitor"])
    let json = try TestProcess([TestPaths.orientctl, "--socket", socket, "monitor", "--json"])
    let sensor = try TestProcess([TestPaths.orientctl, "--socket", socket, "monitor", "--iio-sensor-proxy"])
    #expect(text.waitFor("light 350.5 lux"), "\(text.stdout)")
    #expect(text.waitFor("proximity near"), "\(text.stdout)")
    #expect(!text.stdout.contains("heading"), "no compass, no heading line: \(text.stdout)")
    #expect(json.waitFor(#"{"event":"light","value":350.5,"unit":"lux"}"#), "\(json.stdout)")
    #expect(
      sensor.waitForLines(4) == [
        "=== Has accelerometer (orientation: normal)",
        "=== Has ambient light sensor (value: 350.500000, unit: lux)",
        "=== Has proximity sensor (near: 1)", "=== No compass",
      ], "\(sensor.stdout)")
    try run.write("in_illuminance_input", "20", device: 1)
    try run.write("in_proximity_raw", "0", device: 2)
    #expect(text.waitFor("light 20 lux"), "\(text.stdout)")
    #expect(sensor.waitFor("    Light changed: 20.000000 (lux)"), "\(sensor.stdout)")
    #expect(sensor.waitFor("    Proximity value changed: 0"), "\(sensor.stdout)")
    for process in [text, json, sensor] { process.signal(SIGTERM) }
    #expect(run.stop() == 0)
  }
}
