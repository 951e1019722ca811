import Foundation
import Testing

/// Fast polling and a short settle keep these tests quick without racing the writes.
let fastPolling = ["--dump", "--interval", "10", "--settle", "50"]

@Suite("orientd on fake IIO accelerometers", .scratch)
struct IIOPollingTests {
  @Test("Raw attributes changed during the run are printed as device and orientation changes")
  func liveChanges() throws {
    let run = try FakeSensorRun(devices: [.accelerometer(raw: (0, -256, 0))], arguments: fastPolling)
    #expect(run.process.waitForLines(2).suffix(2).map(dropTime) == ["device normal", "orientation normal"])

    try run.setRaw(256, 0, 0)
    #expect(run.process.waitForLines(4).suffix(2).map(dropTime) == ["device left-up", "orientation left-up"])

    try run.setRaw(0, 0, -256)
    #expect(run.process.waitForLines(5).last.map(dropTime) == "device face-up")

    try run.setRaw(-256, 0, 0)
    #expect(
      run.process.waitForLines(7).suffix(2).map(dropTime) == ["device right-up", "orientation right-up"])

    #expect(run.stop() == 0)
    let lines = run.process.stdoutLines
    #expect(lines.count == 7, "unexpected extra events: \(lines)")
    let times = lines.compactMap { Double($0.split(separator: " ")[0]) }
    #expect(times == times.sorted(), "times must not go back: \(times)")
    #expect(lines.allSatisfy { $0.split(separator: " ")[0].split(separator: ".").last?.count == 3 })
  }

  @Test("The udev ACCEL_MOUNT_MATRIX overrides the sysfs mount matrix")
  func udevMatrixWins() throws {
    let device = FakeDevice.accelerometer(raw: (256, 0, 0))
      .with(property: "ACCEL_MOUNT_MATRIX", "0, 1, 0; -1, 0, 0; 0, 0, 1")
      .with(attribute: "in_accel_mount_matrix", "1, 0, 0; 0, 1, 0; 0, 0, 1")
    let run = try FakeSensorRun(devices: [device], arguments: fastPolling)
    // Raw +x through the udev matrix is (0, -1, 0): normal. The sysfs identity would say left-up.
    #expect(run.process.waitForLines(2).map(dropTime) == ["device normal", "orientation normal"])
    #expect(run.stop() == 0)

    let listing = try runWithFakeDevices([device], ["--list"])
    #expect(listing.status == 0)
    #expect(listing.stdout.contains("matrix source: udev (ACCEL_MOUNT_MATRIX)"))
    #expect(listing.stdout.contains("-> normal"))
  }

  @Test("A sysfs mount matrix applies when udev has none, and a broken one falls through to the next")
  func sysfsMatrix() throws {
    let device = FakeDevice.accelerometer(raw: (256, 0, 0))
      .with(property: "ACCEL_MOUNT_MATRIX", "0, 1, 0; garbage")
      .with(attribute: "mount_matrix", "0, 1, 0; -1, 0, 0; 0, 0, 1")
    let listing = try runWithFakeDevices([device], ["--list"])
    #expect(listing.status == 0)
    #expect(listing.stdout.contains("matrix source: sysfs (mount_matrix)"))
    #expect(listing.stdout.contains("-> normal"))
    #expect(listing.stderr.contains("ignoring mount matrix from udev ACCEL_MOUNT_MATRIX"))
  }

  @Test("The --mount-matrix option overrides udev and sysfs")
  func optionMatrixWins() throws {
    let device = FakeDevice.accelerometer(raw: (256, 0, 0))
      .with(property: "ACCEL_MOUNT_MATRIX", "0, 1, 0; -1, 0, 0; 0, 0, 1")
    let run = try FakeSensorRun(
      devices: [device], arguments: fastPolling + ["--mount-matrix", "-1, 0, 0; 0, -1, 0; 0, 0, 1"])
    #expect(run.process.waitForLines(2).map(dropTime) == ["device right-up", "orientation right-up"])
    #expect(run.stop() == 0)
  }

  @Test("Per-axis scale and offset take precedence over shared ones")
  func perAxisScaleAndOffset() throws {
    // Shared scale makes 256 units 1 g; x has its own scale making 128 units 1 g.
    // y has a per-axis offset of +100 that cancels its raw -100; x and z take the shared offset of 5.
    let device = FakeDevice.accelerometer(raw: (123, -100, -5))
      .with(attribute: "in_accel_x_scale", "0.076614")
      .with(attribute: "in_accel_y_offset", "100")
      .with(attribute: "in_accel_offset", "5")
    let listing = try runWithFakeDevices([device], ["--list"])
    #expect(listing.status == 0)
    #expect(listing.stdout.contains("gravity: x +1.000 y +0.000 z +0.000 g"), "\(listing.stdout)")
    #expect(listing.stdout.contains("x 0.076614 (in_accel_x_scale)"))
    #expect(listing.stdout.contains("x 5.0 (in_accel_offset), y 100.0 (in_accel_y_offset)"))

    let run = try FakeSensorRun(devices: [device], arguments: fastPolling)
    #expect(run.process.waitForLines(2).map(dropTime) == ["device left-up", "orientation left-up"])
    #expect(run.stop() == 0)
  }

  @Test("A missing scale falls back to 1.0 with a warning")
  func missingScale() throws {
    var device = FakeDevice.accelerometer(raw: (0, 0, 10))
    device.attributes.removeAll { $0.0 == "in_accel_scale" }
    let listing = try runWithFakeDevices([device], ["--list"])
    #expect(listing.status == 0)
    #expect(listing.stderr.contains("no usable scale for axis x, y, z"))
    #expect(listing.stdout.contains("z +1.020 g"))
  }

  /// A base sensor (udev's ACCEL_LOCATION=base), found first, reading left-up.
  private static let baseSensor = FakeDevice.accelerometer(
    path: "/devices/platform/base/iio:device0", id: "iio:device0", name: "bmc150_base", raw: (256, 0, 0)
  ).with(property: "ACCEL_LOCATION", "base")
  /// The lid's sensor, with no location of its own, reading bottom-up.
  private static let lidSensor = FakeDevice.accelerometer(
    path: "/devices/platform/lid/iio:device1", id: "iio:device1", name: "bmc150_lid", raw: (0, 256, 0))

  @Test("A base sensor is skipped when a display sensor exists")
  func baseSensorSkipped() throws {
    let (base, display) = (Self.baseSensor, Self.lidSensor)
    let run = try FakeSensorRun(devices: [base, display], arguments: fastPolling)
    #expect(run.process.waitForLines(2).map(dropTime) == ["device bottom-up", "orientation bottom-up"])
    #expect(run.stop() == 0)
    #expect(run.process.stderr.contains("using iio:device1 (bmc150_lid)"))

    let listing = try runWithFakeDevices([base, display], ["--list"])
    #expect(listing.stdout.contains("location: base (udev ACCEL_LOCATION)"))
    #expect(listing.stdout.contains("* iio:device1  bmc150_lid  (would be used)"))
  }

  @Test("udev's ACCEL_LOCATION=lid is the display, as iio-sensor-proxy reads it, with no warning")
  func lidIsDisplay() throws {
    let (base, lid) = (Self.baseSensor, Self.lidSensor.with(property: "ACCEL_LOCATION", "lid"))
    let listing = try runWithFakeDevices([base, lid], ["--list"])
    #expect(listing.stdout.contains("location: display (udev ACCEL_LOCATION)"), "\(listing.stdout)")
    #expect(listing.stdout.contains("* iio:device1  bmc150_lid  (would be used)"), "\(listing.stdout)")
    #expect(!listing.stderr.contains("ignoring it"), "\(listing.stderr)")
  }

  @Test("A sysfs label accel-base marks a base sensor too, and --device can still pick it")
  func baseByLabel() throws {
    let base = FakeDevice.accelerometer(
      path: "/devices/platform/base/iio:device0", id: "iio:device0", name: "accel_base", raw: (256, 0, 0)
    ).with(attribute: "label", "accel-base")
    let display = FakeDevice.accelerometer(
      path: "/devices/platform/lid/iio:device1", id: "iio:device1", name: "accel_lid", raw: (-256, 0, 0))
    let automatic = try FakeSensorRun(devices: [base, display], arguments: fastPolling)
    #expect(automatic.process.waitForLines(1).first.map(dropTime) == "device right-up")
    #expect(automatic.stop() == 0)

    let chosen = try FakeSensorRun(
      devices: [base, display], arguments: fastPolling + ["--device", "accel-base"])
    #expect(chosen.process.waitForLines(1).first.map(dropTime) == "device left-up")
    #expect(chosen.stop() == 0)
  }

  @Test("--list with a --device that matches nothing still lists, marks none, and says why")
  func listWithUnknownDevice() throws {
    let listing = try runWithFakeDevices([.accelerometer()], ["--list", "--device", "no-such-sensor"])
    #expect(listing.status == 0, "\(listing.stderr)")
    #expect(listing.stdout.contains("iio:device0"), "\(listing.stdout)")
    #expect(!listing.stdout.contains("(would be used)"), "\(listing.stdout)")
    #expect(
      listing.stderr.contains("no accelerometer matches --device no-such-sensor")
        && listing.stderr.contains("none would be used"), "\(listing.stderr)")
  }

  @Test("Only base sensors, or a --device that matches nothing, exit 69 with advice")
  func onlyBase() throws {
    let base = FakeDevice.accelerometer().with(property: "ACCEL_LOCATION", "base")
    let result = try runWithFakeDevices([base], ["--dump"])
    #expect(result.status == 69)
    #expect(result.stderr.contains("base sensors are skipped"))
    #expect(result.stderr.contains("--device"))

    let unmatched = try runWithFakeDevices([.accelerometer()], ["--dump", "--device", "nonesuch"])
    #expect(unmatched.status == 69)
    #expect(unmatched.stderr.contains("no accelerometer matches --device nonesuch"))
  }

  @Test("With no accelerometer orientd exits 69 and says where it looked")
  func noSensor() throws {
    let light = FakeDevice(
      sysfsPath: "/devices/platform/als/iio:device0", id: "iio:device0",
      attributes: [("name", "als"), ("in_illuminance_raw", "42")])
    let result = try runWithFakeDevices([light], ["--dump"])
    #expect(result.status == 69)
    #expect(result.stderr.contains("no usable accelerometer in IIO context local:"))
    #expect(result.stderr.contains("--uri"))
    #expect(result.stderr.contains("--demo"))

    let listing = try runWithFakeDevices([light], ["--list"])
    #expect(listing.status == 69)

    let nothing = try runWithFakeDevices([], ["--dump"])
    #expect(nothing.status == 69)
    #expect(nothing.stderr.contains("no IIO devices on this machine"))
  }

  @Test("A service on a machine without IIO says so plainly in info, without a command's advice, and goes on")
  func noIIOWhileServing() throws {
    let (run, socket) = try servingFakeSensor([], extra: [], ready: "no IIO devices on this machine")
    let client = try TestClient(path: socket)
    _ = client.readLines(greetingLines)
    client.send("info\n")
    let info = client.readLines(through: "ok")
    #expect(
      info.contains("info sensor-problem no IIO devices on this machine (/sys/bus/iio/devices is missing)"),
      "\(info)")
    #expect(!info.joined().contains("--demo"), "\(info)")
    #expect(run.stop() == 0)
  }

  @Test("--record appends corrected live samples to a trace that replays")
  func recordLive() throws {
    let path = try Scratch.current().path("live.trace")
    let device = FakeDevice.accelerometer(raw: (256, 0, 0))
      .with(property: "ACCEL_MOUNT_MATRIX", "0, 1, 0; -1, 0, 0; 0, 0, 1")
    let run = try FakeSensorRun(devices: [device], arguments: fastPolling + ["--record", path])
    #expect(run.process.waitForLines(2).count == 2)
    #expect(run.stop() == 0)
    let lines = try String(contentsOfFile: path, encoding: .utf8).split(separator: "\n")
    #expect(lines.first == "# orientd-trace 1")
    #expect(lines.count > 3)
    // Raw +x through the matrix is corrected (0, -1, 0).
    #expect(lines.dropFirst().allSatisfy { $0.hasSuffix(" 0.0000 -1.0000 0.0000") }, "\(lines.prefix(3))")
    let replay = try runToCompletion([TestPaths.orientd, "--dump", "--settle", "0", "--replay", path])
    #expect(replay.status == 0)
    #expect(
      replay.stdout.split(separator: "\n").map { dropTime(String($0)) } == [
        "device normal", "orientation normal",
      ])
  }

  @Test("--list shows every accelerometer with its scale, matrix and reading")
  func listing() throws {
    let device = FakeDevice.accelerometer(raw: (0, -256, 0)).with(attribute: "label", "accel-display")
    let result = try runWithFakeDevices([device], ["--list"])
    #expect(result.status == 0)
    #expect(result.stdout.contains("* iio:device0  accel_3d"))
    #expect(result.stdout.contains("location: display (sysfs label), label accel-display"))
    #expect(result.stdout.contains("scale: 0.038307 (in_accel_scale)"))
    #expect(result.stdout.contains("matrix source: identity (no matrix found)"))
    #expect(result.stdout.contains("gravity: x +0.000 y -1.000 z +0.000 g"))
    #expect(result.stdout.contains("-> normal"))
  }
}
