import Foundation
import Testing

/// iio-sensor-proxy's accelerometer scenarios (its integration test `tests/integration-test.py`
/// and its unit tests of orientation, mount matrix and location), rebuilt on umockdev devices
/// and run against orientd, read back with orientctl. Where Debian's iio-sensor-proxy is
/// installed it runs on the same kind of device, and both must agree.
///
/// Contracts that differ on purpose, asserted as orientd's:
/// - iio-sensor-proxy reports `undefined` until a client claims the sensor; orientd samples
///   from the start, so there is no claim step.
/// - iio-sensor-proxy classifies every poll (700 ms) at once; orientd debounces (`--settle`,
///   0 here so the tests are quick) and ignores samples far from 1 g (the shake gate).
/// - A flat device: iio-sensor-proxy keeps the last orientation; orientd does the same for
///   the screen orientation and also publishes the device as face-up or face-down.
/// - orientd's frame is the hwdb (Windows) gravity frame: face-up is z = -1 g. iio-sensor-proxy
///   3.6's `AccelerometerTilt` calls z > 0 face-up.
@Suite("iio-sensor-proxy's accelerometer scenarios, run against orientd", .scratch)
struct IIOSensorProxyScenarioTests {
  /// Their scale of 10 makes the raw 25.6 a gravity of 26 g; this one makes it 1 g.
  static let scaleForOneGAt25Point6 = "0.383072"

  @Test("iio poll accel: the polled accelerometer turns from normal to right-up, as iio-sensor-proxy reports")
  func pollAccel() throws {
    let device = FakeDevice.testAccelerometer(raw: ("0", "-25.6", "0"), scale: Self.scaleForOneGAt25Point6)
    let daemon = try WatchedDaemon([device])
    #expect(daemon.waitFor("device", "normal"))
    #expect(try daemon.get("orientation") == "normal")
    try daemon.run.write("in_accel_x_raw", "-25.6")
    try daemon.run.write("in_accel_y_raw", "0")
    #expect(daemon.waitFor("device", "right-up"))
    #expect(try daemon.get("orientation") == "right-up")
    #expect(daemon.all("device") == ["normal", "right-up"])
    #expect(daemon.stop() == 0)

    let peer = try SensorProxyPeer([device.forSensorProxy])
    #expect(peer.waitFor("normal"), "\(peer.run.process.stdout)")
    try peer.run.write("in_accel_x_raw", "-25.6")
    try peer.run.write("in_accel_y_raw", "0")
    #expect(peer.waitFor("right-up"), "\(peer.run.process.stdout)")
    #expect(peer.orientations == ["normal", "right-up"])
  }

  /// orientd on a sensor reading about 26 g classifies once the magnitude has held steady
  /// (outside the gate) for 2 s, dividing by it, and says so; then it turns to right-up when
  /// x reads `rightUpX`. The daemon is stopped.
  private func expectTurnsAt26G(_ daemon: WatchedDaemon, rightUpX: String) throws {
    try #require(daemon.waitFor("device", "normal"))
    #expect(daemon.run.process.stderr.contains("fails the magnitude gate"), "\(daemon.run.process.stderr)")
    try daemon.run.write("in_accel_x_raw", rightUpX)
    try daemon.run.write("in_accel_y_raw", "0")
    #expect(daemon.waitFor("device", "right-up"))
    #expect(try daemon.get("orientation") == "right-up")
    #expect(daemon.stop() == 0)
  }

  @Test(
    "iio poll accel with iio-sensor-proxy's scale of 10: a steady 26 g still turns normal, then right-up"
  )
  func pollAccelAt26G() throws {
    let device = FakeDevice.testAccelerometer(raw: ("0", "-25.6", "0"), scale: "10")
    let daemon = try WatchedDaemon([device])
    #expect(try daemon.run.waitForPolls(3))
    try expectTurnsAt26G(daemon, rightUpX: "-25.6")

    // iio-sensor-proxy classifies by angle, so the magnitude does not matter to it.
    let peer = try SensorProxyPeer([device.forSensorProxy])
    #expect(peer.waitFor("normal"), "\(peer.run.process.stdout)")
    try peer.run.write("in_accel_x_raw", "-25.6")
    try peer.run.write("in_accel_y_raw", "0")
    #expect(peer.waitFor("right-up"), "\(peer.run.process.stdout)")
  }

  @Test(
    "iio poll accel and sampling_frequency_available: a 5.2 Hz sensor is raised to 10 Hz, or to the lowest listed rate above",
    arguments: [
      (nil, 10.0), ("3 6 12 25 50 100 200 400 800 1600", 12.0),
      ("800.000000 400.000000 200.000000 100.000000 50.000000 12.500000 6.250000 1.560000", 12.5),
    ] as [(String?, Double)])
  func pollAccelFrequency(available: String?, expected: Double) throws {
    var device = FakeDevice.testAccelerometer(raw: ("0", "-25.6", "0"), scale: Self.scaleForOneGAt25Point6)
    if let available { device = device.with(attribute: "sampling_frequency_available", available) }
    // At the default interval (200 ms, 5 Hz) orientd needs no more than iio-sensor-proxy's
    // floor of 10 Hz; a shorter interval raises the rate further.
    let daemon = try WatchedDaemon([device], intervalMilliseconds: 200)
    #expect(daemon.waitFor("device", "normal"))
    #expect(Double(daemon.run.read("sampling_frequency")) == expected)
    #expect(daemon.stop() == 0)
    // The original rate is back once orientd has stopped.
    #expect(daemon.run.read("sampling_frequency") == "5.2")
  }

  @Test("iio accel base location: a sensor labelled accel-base alone is not used as the accelerometer")
  func baseLocationAlone() throws {
    let device = FakeDevice.testAccelerometer(raw: ("0", "-25.6", "0"), scale: Self.scaleForOneGAt25Point6)
      .with(attribute: "label", "accel-base")
    // iio-sensor-proxy then says it has no accelerometer; orientd serves `sensor offline`.
    let daemon = try WatchedDaemon([device])
    #expect(
      daemon.run.process.waitFor("base sensors are skipped", inStderr: true), "\(daemon.run.process.stderr)")
    #expect(try daemon.get("sensor") == "offline")
    #expect(try daemon.get("device") == "undefined")
    #expect(daemon.stop() == 0)
  }

  @Test(
    "Multiple accelerometers: the display sensor is used and the base one skipped, however the base is marked",
    arguments: ["sysfs label accel-base", "sysfs location base", "udev ACCEL_LOCATION base"])
  func displayAndBase(marking: String) throws {
    var base = FakeDevice.accelerometer(
      path: "/devices/platform/base/iio:device0", id: "iio:device0", name: "accel_base", raw: (256, 0, 0))
    switch marking {
    case "sysfs label accel-base": base = base.with(attribute: "label", "accel-base")
    case "sysfs location base": base = base.with(attribute: "location", "base")
    default: base = base.with(property: "ACCEL_LOCATION", "base")
    }
    // The display sensor comes second, so picking the first device would be wrong.
    let display = FakeDevice.accelerometer(
      path: "/devices/platform/lid/iio:device1", id: "iio:device1", name: "accel_lid", raw: (0, 256, 0))
    let daemon = try WatchedDaemon([base, display])
    #expect(daemon.waitFor("device", "bottom-up"))
    #expect(
      daemon.run.process.stderr.contains("using iio:device1 (accel_lid)"), "\(daemon.run.process.stderr)")
    try daemon.run.setRaw(-256, 0, 0, device: 1)
    #expect(daemon.waitFor("device", "right-up"))
    #expect(
      !daemon.all("device").contains("left-up"), "the base sensor's reading leaked: \(daemon.all("device"))")
    #expect(daemon.stop() == 0)

    // Debian's iio-sensor-proxy 3.0 predates the label (3.1 reads it): its integration test's
    // expectation (the base sensor is not used) is the reference for that marking.
    guard marking != "sysfs label accel-base" else { return }
    let peer = try SensorProxyPeer([base.forSensorProxy, display.forSensorProxy])
    #expect(peer.waitFor("bottom-up"), "\(peer.run.process.stdout)")
    try peer.run.setRaw(-256, 0, 0, device: 1)
    #expect(peer.waitFor("right-up"), "\(peer.run.process.stdout)")
    #expect(peer.orientations == ["bottom-up", "right-up"])
  }

  @Test(
    "Accelerometer location parsing: udev ACCEL_LOCATION display and base are taken, any other value is refused with a warning"
  )
  func locationParsing() throws {
    for (value, expected) in [
      ("display", "display (udev ACCEL_LOCATION)"), ("base", "base (udev ACCEL_LOCATION)"),
    ] {
      let listing = try runWithFakeDevices(
        [.accelerometer().with(property: "ACCEL_LOCATION", value)], ["--list"])
      #expect(listing.stdout.contains("location: \(expected)"), "\(listing.stdout)")
    }
    // iio-sensor-proxy warns "Failed to parse ACCEL_LOCATION ('...') from udev" and uses the
    // display location; orientd must not take a typo in a hwdb entry silently either.
    let typo = FakeDevice.accelerometer().with(property: "ACCEL_LOCATION", "bsae")
    let daemon = try WatchedDaemon([typo])
    #expect(daemon.waitFor("device", "normal"), "the sensor is still used")
    #expect(daemon.run.process.stderr.contains("ACCEL_LOCATION"), "no warning: \(daemon.run.process.stderr)")
    #expect(daemon.run.process.stderr.contains("bsae"), "no warning: \(daemon.run.process.stderr)")
    #expect(daemon.stop() == 0)
  }

  @Test(
    "Multiple accelerometers: a sensor whose sysfs location says lid is the display one, ahead of an unmarked one"
  )
  func lidLocation() throws {
    // For iio-sensor-proxy an unmarked sensor is a display sensor too, so it takes the first of
    // the two. orientd prefers a sensor that says it is in the display over one that says
    // nothing, and skips only sensors marked as in the base.
    let unmarked = FakeDevice.accelerometer(
      path: "/devices/platform/other/iio:device0", id: "iio:device0", name: "accel_other", raw: (256, 0, 0))
    let lid = FakeDevice.accelerometer(
      path: "/devices/platform/lid/iio:device1", id: "iio:device1", name: "accel_lid", raw: (0, 256, 0)
    ).with(attribute: "location", "lid")
    let daemon = try WatchedDaemon([unmarked, lid])
    #expect(daemon.waitFor("device", "bottom-up"))
    #expect(
      daemon.run.process.stderr.contains("using iio:device1 (accel_lid) in local:, location display"),
      "\(daemon.run.process.stderr)")
    #expect(daemon.stop() == 0)
  }

  @Test(
    "iio buffer accel: a buffered accelerometer with scan elements only is set up and turns normal, left-up, normal"
  )
  func bufferAccelScanElementsOnly() throws {
    let daemon = try WatchedDaemon(
      [.testBufferedAccelerometer(rawFiles: false), .trigger("accel_3d-dev0", number: 0)],
      extra: ["--mode", "buffer"], bufferFIFO: true, mustListen: false)
    try #require(daemon.isListening, "orientd exited: \(daemon.run.process.stderr)")
    // No scale attribute: the raw values are m/s² already, so 10 is about 1 g.
    try checkBufferSetupAndTurns(daemon, oneG: 10)
    #expect(daemon.stop() == 0, "\(daemon.run.process.stderr)")
  }

  @Test("iio buffer accel with 16 of 32 stored bits used: scans turn orientd normal, left-up, then normal")
  func bufferAccel32BitStorage() throws {
    let device = FakeDevice.testBufferedAccelerometer(rawFiles: true)
      .with(attribute: "in_accel_scale", "0.038307")
    let daemon = try WatchedDaemon(
      [device, .trigger("accel_3d-dev0", number: 0)], extra: ["--mode", "buffer"], bufferFIFO: true)
    try checkBufferSetupAndTurns(daemon, oneG: 256)
    #expect(daemon.stop() == 0)
  }

  /// iio-sensor-proxy's buffer checks: the buffer and x, y and z are enabled before any
  /// data comes, and scans of normal, left-up and normal are read in turn.
  private func checkBufferSetupAndTurns(_ daemon: WatchedDaemon, oneG: Int16) throws {
    let run = daemon.run
    // Either it captures, or it found no accelerometer and looks again later.
    waitUntil {
      ["capture mode buffer", "looking again"].contains { run.process.stderr.contains($0) }
    }
    try #require(run.process.stderr.contains("capture mode buffer"), "\(run.process.stderr)")
    #expect(run.read("buffer/enable") == "1")
    #expect(["x", "y", "z"].map { run.read("scan_elements/in_accel_\($0)_en") } == ["1", "1", "1"])
    #expect(try daemon.get("device") == "undefined")
    try run.writeScans32([(0, -oneG, 0)])
    #expect(daemon.waitFor("device", "normal"), "\(run.process.stderr)")
    try run.writeScans32([(oneG, 0, 0)])
    #expect(daemon.waitFor("device", "left-up"))
    try run.writeScans32([(0, -oneG, 0)])
    #expect(daemon.waitFor("device", "normal"))
    #expect(daemon.all("device") == ["normal", "left-up", "normal"])
  }

  @Test(
    "Scale decimal separator (buffer, per-axis offset, polling): under a decimal-comma locale scale and offset read as written"
  )
  func decimalSeparator() throws {
    let locale = try commaLocale()
    // iio-sensor-proxy's first two devices are buffered with no raw files (not recognised by
    // orientd yet, see the buffer test); these carry the same scale, offset and matrix
    // attributes on a polled device.
    let shared = FakeDevice.testAccelerometer(raw: ("0", "-25600", "0"), scale: "0.000010")
      .with(attribute: "in_accel_offset", "0.0")
      .with(attribute: "in_accel_mount_matrix", "1, 0, 0; 0, 1, 0; 0, 0, 1")
    let listing = try FakeSensorRun(devices: [shared], arguments: ["--list"], prepare: locale.prepare)
    #expect(listing.waitForExit() == 0, "\(listing.process.stderr)")
    #expect(listing.process.stdout.contains("scale: 1e-05 (in_accel_scale)"), "\(listing.process.stdout)")
    #expect(listing.process.stdout.contains("offset: 0.0 (in_accel_offset)"), "\(listing.process.stdout)")

    let perAxis = shared.without(attribute: "in_accel_offset").with(attribute: "in_accel_x_offset", "0.0")
    let axisListing = try FakeSensorRun(devices: [perAxis], arguments: ["--list"], prepare: locale.prepare)
    #expect(axisListing.waitForExit() == 0, "\(axisListing.process.stderr)")
    #expect(axisListing.process.stdout.contains("0.0 (in_accel_x_offset)"), "\(axisListing.process.stdout)")

    // The polled one: 256000000 raw at scale 0.000001 is 256 m/s², about 26 g.
    let polled = FakeDevice.testAccelerometer(raw: ("0", "-256000000", "0"), scale: "0.000001")
    let daemon = try WatchedDaemon([polled], prepare: locale.prepare)
    let list = try FakeSensorRun(devices: [polled], arguments: ["--list"], prepare: locale.prepare)
    #expect(list.waitForExit() == 0)
    #expect(list.process.stdout.contains("scale: 1e-06 (in_accel_scale)"), "\(list.process.stdout)")
    #expect(list.process.stdout.contains("y -26.105 "), "\(list.process.stdout)")
    let environ = FileManager.default.contents(atPath: "/proc/\(daemon.run.programPID)/environ") ?? Data()
    let environment = String(decoding: environ, as: UTF8.self)
    #expect(environment.contains("LC_ALL=fr_FR.UTF-8\u{0}"), "orientd must run under the comma locale")
    #expect(try daemon.run.waitForPolls(3))
    try expectTurnsAt26G(daemon, rightUpX: "-256000000")
  }

  @Test(
    "Orientation turns at 1 g = 256: normal, right-up, left-up and bottom-up, as iio-sensor-proxy reports")
  func fourTurns() throws {
    let turns: [((Int, Int, Int), String)] = [
      ((-256, 0, 0), "right-up"), ((256, 0, 0), "left-up"), ((0, 256, 0), "bottom-up"),
      ((0, -256, 0), "normal"),
    ]
    let device = FakeDevice.accelerometer(raw: (0, -256, 0))
    let daemon = try WatchedDaemon([device])
    #expect(daemon.waitFor("device", "normal"))
    for ((x, y, z), expected) in turns {
      try daemon.run.setRaw(x, y, z)
      #expect(daemon.waitFor("device", expected))
      #expect(daemon.waitFor("orientation", expected))
    }
    #expect(daemon.all("device") == ["normal"] + turns.map(\.1))
    #expect(daemon.stop() == 0)

    let peer = try SensorProxyPeer([device.forSensorProxy])
    #expect(peer.waitFor("normal"), "\(peer.run.process.stdout)")
    for ((x, y, z), expected) in turns {
      try peer.run.setRaw(x, y, z)
      #expect(peer.waitFor(expected), "\(peer.run.process.stdout)")
    }
    #expect(peer.orientations == ["normal"] + turns.map(\.1))
  }

  @Test(
    "A brief turn: iio-sensor-proxy reports what each poll reads; orientd debounces a turn shorter than its settle time"
  )
  func briefTurn() throws {
    // orientd's contract: a new orientation must hold for --settle before it is published, so
    // a bump does not rotate the screen. iio-sensor-proxy publishes every poll's reading. A
    // long settle leaves room for a slow machine between the two writes.
    let daemon = try WatchedDaemon([.accelerometer(raw: (0, -256, 0))], settleMilliseconds: 2000)
    #expect(daemon.waitFor("device", "normal"))
    try daemon.run.setRaw(256, 0, 0)
    #expect(try daemon.run.waitForPolls(2))
    try daemon.run.setRaw(0, -256, 0)
    #expect(try daemon.run.waitForPolls(2))
    #expect(try daemon.get("device") == "normal")
    // Held, the same turn is published once it has settled.
    try daemon.run.setRaw(256, 0, 0)
    #expect(daemon.waitFor("device", "left-up"))
    #expect(daemon.all("device") == ["normal", "left-up"])
    #expect(daemon.stop() == 0)

    let peer = try SensorProxyPeer([FakeDevice.accelerometer(raw: (0, -256, 0)).forSensorProxy])
    #expect(peer.waitFor("normal"), "\(peer.run.process.stdout)")
    try peer.run.setRaw(256, 0, 0)
    #expect(peer.waitFor("left-up"), "\(peer.run.process.stdout)")
    try peer.run.setRaw(0, -256, 0)
    #expect(peer.waitFor("normal"), "\(peer.run.process.stdout)")
    #expect(peer.orientations == ["normal", "left-up", "normal"])
  }

  @Test(
    "Orientation threshold: leaning about 35 degrees toward left-up keeps normal, as iio-sensor-proxy does")
  func threshold() throws {
    let leans = [(183, -256, 0), (176, -256, 0), (183, -256, 0)]
    let device = FakeDevice.accelerometer(raw: (0, -256, 0))
    let daemon = try WatchedDaemon([device])
    #expect(daemon.waitFor("device", "normal"))
    for (x, y, z) in leans {
      try daemon.run.setRaw(x, y, z)
      #expect(try daemon.run.waitForPolls(3))
    }
    #expect(try daemon.get("device") == "normal")
    #expect(daemon.all("device") == ["normal"])
    #expect(daemon.stop() == 0)

    let peer = try SensorProxyPeer([device.forSensorProxy])
    #expect(peer.waitFor("normal"), "\(peer.run.process.stdout)")
    for (x, y, z) in leans {
      try peer.run.setRaw(x, y, z)
      #expect(try peer.run.waitForPolls(2))
    }
    #expect(peer.orientations == ["normal"])
  }

  @Test(
    "A flat device keeps the last orientation: iio-sensor-proxy keeps it, orientd keeps it and says face-up"
  )
  func flatDevice() throws {
    let device = FakeDevice.accelerometer(raw: (0, -256, 0))
    let daemon = try WatchedDaemon([device])
    #expect(daemon.waitFor("device", "normal"))
    try daemon.run.setRaw(0, 0, -256)
    #expect(daemon.waitFor("device", "face-up"))
    #expect(try daemon.get("orientation") == "normal")
    #expect(daemon.all("orientation") == ["normal"])
    #expect(daemon.stop() == 0)

    // Flat from the start: the orientation stays undefined.
    let flat = try WatchedDaemon([.accelerometer(raw: (0, 0, -256))])
    #expect(flat.waitFor("device", "face-up"))
    #expect(try flat.get("orientation") == "undefined")
    #expect(flat.stop() == 0)

    let peer = try SensorProxyPeer([device.forSensorProxy])
    #expect(peer.waitFor("normal"), "\(peer.run.process.stdout)")
    try peer.run.setRaw(0, 0, -256)
    #expect(try peer.run.waitForPolls(2))
    #expect(peer.orientations == ["normal"])
  }

  @Test(
    "Accelerometer tilt: face-up is z = -1 g and face-down z = +1 g in orientd's gravity frame; tilted-up and -down are not published"
  )
  func tilt() throws {
    // iio-sensor-proxy 3.6's AccelerometerTilt says face-up for z > 0 and also reports
    // vertical, tilted-up and tilted-down. orientd keeps the hwdb (Windows) gravity frame, in
    // which a device lying face-up reads z = -1 g, and publishes only the flat poses.
    let daemon = try WatchedDaemon([.accelerometer(raw: (0, 0, -256))])
    #expect(daemon.waitFor("device", "face-up"))
    try daemon.run.setRaw(0, 0, 256)
    #expect(daemon.waitFor("device", "face-down"))
    // Tilted back by 30 degrees from upright: still normal.
    try daemon.run.setRaw(0, -222, -128)
    #expect(daemon.waitFor("device", "normal"))
    #expect(daemon.all("device") == ["face-up", "face-down", "normal"])
    #expect(daemon.stop() == 0)
  }

  @Test(
    "Mount matrix quirks (Onda v975, Winbook TW100): their readings through ACCEL_MOUNT_MATRIX turn as iio-sensor-proxy says",
    arguments: [
      ("0.019163", (523, 13, 5), "normal", (8, 521, -67), "right-up"),
      ("0.306457", (24, 0, -21), "normal", (15, -25, -14), "left-up"),
    ] as [(String, (Int, Int, Int), String, (Int, Int, Int), String)])
  func quirks(
    scale: String, first: (Int, Int, Int), firstExpected: String, second: (Int, Int, Int),
    secondExpected: String
  ) throws {
    let device = FakeDevice.accelerometer(raw: first)
      .with(attribute: "in_accel_scale", scale)
      .with(property: "ACCEL_MOUNT_MATRIX", "0, -1, 0; -1, 0, 0; 0, 0, 1")
    let daemon = try WatchedDaemon([device])
    #expect(daemon.waitFor("device", firstExpected))
    try daemon.run.setRaw(second.0, second.1, second.2)
    #expect(daemon.waitFor("device", secondExpected))
    #expect(daemon.stop() == 0)

    let peer = try SensorProxyPeer([device.forSensorProxy])
    #expect(peer.waitFor(firstExpected), "\(peer.run.process.stdout)")
    try peer.run.setRaw(second.0, second.1, second.2)
    #expect(peer.waitFor(secondExpected), "\(peer.run.process.stdout)")
  }

  @Test(
    "Mount matrix sources: udev ACCEL_MOUNT_MATRIX, sysfs mount_matrix, in_accel_mount_matrix and in_mount_matrix each rotate the reading",
    arguments: ["ACCEL_MOUNT_MATRIX", "mount_matrix", "in_accel_mount_matrix", "in_mount_matrix"])
  func matrixSources(source: String) throws {
    // Raw +x through this matrix is (0, -1, 0): normal. Unrotated it would be left-up.
    let matrix = "0, 1, 0; -1, 0, 0; 0, 0, 1"
    var device = FakeDevice.accelerometer(raw: (256, 0, 0))
    device =
      source == "ACCEL_MOUNT_MATRIX"
      ? device.with(property: source, matrix) : device.with(attribute: source, matrix)
    let daemon = try WatchedDaemon([device])
    #expect(daemon.waitFor("device", "normal"))
    #expect(daemon.all("device") == ["normal"])
    #expect(daemon.stop() == 0)

    let peer = try SensorProxyPeer([device.forSensorProxy])
    #expect(peer.waitFor("normal"), "\(peer.run.process.stdout)")
  }

  @Test(
    "Mount matrix parsing: a matrix with an all-zero axis is refused with a warning and the next source is used"
  )
  func invalidMatrix() throws {
    let device = FakeDevice.accelerometer(raw: (256, 0, 0))
      .with(property: "ACCEL_MOUNT_MATRIX", "0, 1, 0; 1, 0, 0; 0, 0, 0")
      .with(attribute: "mount_matrix", "0, 1, 0; -1, 0, 0; 0, 0, 1")
    let daemon = try WatchedDaemon([device])
    #expect(daemon.waitFor("device", "normal"))
    #expect(
      daemon.run.process.stderr.contains("ignoring mount matrix from udev ACCEL_MOUNT_MATRIX"),
      "\(daemon.run.process.stderr)")
    #expect(daemon.stop() == 0)
  }

  @Test("Mount matrix parsing: the swap-Y/Z matrix turns an upright reading into a flat one")
  func swapYZ() throws {
    let device = FakeDevice.accelerometer(raw: (0, -256, 0))
      .with(property: "ACCEL_MOUNT_MATRIX", "1, 0, 0; 0, 0, 1; 0, 1, 0")
    let daemon = try WatchedDaemon([device])
    // (0, -256, 0) swapped is (0, 0, -256): face-up in orientd's frame.
    #expect(daemon.waitFor("device", "face-up"))
    #expect(try daemon.get("orientation") == "undefined")
    #expect(daemon.stop() == 0)
  }

  @Test(
    "Scale shared by all channels: the scale attribute (cros-ec sensors) is used when in_accel_scale is missing"
  )
  func sharedByAllScale() throws {
    // cros-ec sensors, in every Chromebook, give one `scale` for all channels; 16400 raw is
    // about 1 g at its 0.000598 m/s² a unit. iio-sensor-proxy reads `scale` after
    // `in_accel_scale`.
    let device = FakeDevice.accelerometer(raw: (0, -16400, 0)).without(attribute: "in_accel_scale")
      .with(attribute: "scale", "0.000598")
    let listing = try runWithFakeDevices([device], ["--list"])
    #expect(listing.stdout.contains("scale: 0.000598 (scale)"), "\(listing.stdout)")
    let daemon = try WatchedDaemon([device])
    #expect(try daemon.run.waitForPolls(3))
    #expect(try daemon.get("device") == "normal")
    #expect(daemon.stop() == 0)

    let peer = try SensorProxyPeer([device.forSensorProxy])
    #expect(peer.waitFor("normal"), "\(peer.run.process.stdout)")
  }

  @Test(
    "Accelerometer hot-plug: the sensor disappearing and coming back is announced as monitor-sensor announces it"
  )
  func hotplug() throws {
    // Removing the device's folder is a disappearance without a uevent, which orientd notices
    // by polling; iio-sensor-proxy needs the uevent, which umockdev-run cannot send.
    let daemon = try WatchedDaemon([.accelerometer(raw: (0, -256, 0))])
    // Connected once the sensor is online: a greeting sent before the sampling thread has
    // attached it says the sensor is offline (monitor-sensor's "No accelerometer").
    #expect(daemon.waitFor("device", "normal"))
    let proxyStyle = try TestProcess([
      TestPaths.orientctl, "--socket", daemon.socket, "monitor", "--iio-sensor-proxy",
    ])
    #expect(
      proxyStyle.waitForLines(1).first?.hasPrefix("=== Has accelerometer") == true, "\(proxyStyle.stdout)")
    try daemon.run.unplug()
    #expect(daemon.waitFor("sensor", "offline"))
    #expect(proxyStyle.waitFor("--- Accelerometer disappeared"))
    #expect(try daemon.get("device") == "normal", "the last orientation is still served")
    try daemon.run.plug()
    #expect(daemon.waitFor("sensor", "online"))
    #expect(proxyStyle.waitFor("+++ Accelerometer appeared"))
    try daemon.run.setRaw(256, 0, 0)
    #expect(daemon.waitFor("device", "left-up"))
    #expect(proxyStyle.waitFor("    Accelerometer orientation changed: left-up"))
    proxyStyle.signal(SIGTERM)
    #expect(proxyStyle.waitForExit() != nil)
    #expect(daemon.stop() == 0)
  }
}
