import Foundation
import Testing

/// A fake IIO device for umockdev: sysfs attributes, udev properties, and its sysfs path.
struct FakeDevice {
  var sysfsPath: String
  var id: String
  var attributes: [(String, String)]
  var properties: [(String, String)] = []

  /// An accelerometer named `name` whose raw readings are (x, y, z), with a shared scale
  /// that makes 256 raw units 1 g.
  static func accelerometer(
    path: String = "/devices/platform/accel/iio:device0", id: String = "iio:device0",
    name: String = "accel_3d",
    raw: (Int, Int, Int) = (0, -256, 0)
  ) -> FakeDevice {
    FakeDevice(
      sysfsPath: path, id: id,
      attributes: [
        ("name", name), ("in_accel_x_raw", "\(raw.0)"), ("in_accel_y_raw", "\(raw.1)"),
        ("in_accel_z_raw", "\(raw.2)"), ("in_accel_scale", "0.038307"),
      ])
  }

  /// Sets or replaces an attribute.
  func with(attribute name: String, _ value: String) -> FakeDevice {
    var copy = self
    copy.attributes.removeAll { $0.0 == name }
    copy.attributes.append((name, value))
    return copy
  }

  /// Sets a udev property.
  func with(property name: String, _ value: String) -> FakeDevice {
    var copy = self
    copy.properties.append((name, value))
    return copy
  }

  /// The device in umockdev's text format. Values end with a newline, as sysfs values do.
  var umockdevText: String {
    var text = "P: \(sysfsPath)\nN: \(id)\nE: SUBSYSTEM=iio\nE: DEVNAME=/dev/\(id)\n"
    for (key, value) in properties { text += "E: \(key)=\(value)\n" }
    for (key, value) in attributes { text += "A: \(key)=\(value)\\n\n" }
    return text
  }
}

/// `orientd` running inside a umockdev testbed holding fake devices.
final class FakeSensorRun {
  let process: TestProcess
  let testbed: String
  let devices: [FakeDevice]

  /// Starts `orientd ARGUMENTS` under umockdev-run with `devices`, and waits for the testbed.
  init(devices: [FakeDevice], arguments: [String]) throws {
    let umockdev = try #require(
      TestPaths.which("umockdev-run"), "umockdev-run is missing: apt-get install umockdev")
    let directory = try TestPaths.scratchDirectory()
    let deviceFile = directory + "/devices.umockdev"
    try devices.map(\.umockdevText).joined(separator: "\n").write(
      toFile: deviceFile, atomically: true, encoding: .utf8)
    let testbedFile = directory + "/testbed"
    let deviceArguments = devices.isEmpty ? [] : ["--device", deviceFile]
    let command =
      "printf %s \"$UMOCKDEV_DIR\" > \(testbedFile).tmp && mv \(testbedFile).tmp \(testbedFile) && exec \"$@\""
    process = try TestProcess(
      [umockdev] + deviceArguments + ["--", "/bin/sh", "-c", command, "sh", TestPaths.orientd] + arguments)
    let deadline = Date().addingTimeInterval(10)
    while !FileManager.default.fileExists(atPath: testbedFile), Date() < deadline { usleep(5_000) }
    testbed = try String(contentsOfFile: testbedFile, encoding: .utf8)
    self.devices = devices
  }

  /// Writes a sysfs attribute of device `index` as the kernel would (value plus newline).
  func write(_ attribute: String, _ value: String, device index: Int = 0) throws {
    let path = testbed + "/sys" + devices[index].sysfsPath + "/" + attribute
    // Atomic replacement: orientd never reads a half-written value.
    try (value + "\n").write(toFile: path, atomically: true, encoding: .utf8)
  }

  /// Sets the three raw readings of device `index`.
  func setRaw(_ x: Int, _ y: Int, _ z: Int, device index: Int = 0) throws {
    try write("in_accel_x_raw", "\(x)", device: index)
    try write("in_accel_y_raw", "\(y)", device: index)
    try write("in_accel_z_raw", "\(z)", device: index)
  }

  /// Stops orientd with SIGTERM and returns its exit status.
  func stop() -> Int32? {
    process.signal(SIGTERM)
    return process.waitForExit(timeout: 10)
  }
}

/// Runs `orientd ARGUMENTS` to completion inside a umockdev testbed with `devices`.
func runWithFakeDevices(_ devices: [FakeDevice], _ arguments: [String]) throws -> (
  status: Int32, stdout: String, stderr: String
) {
  let run = try FakeSensorRun(devices: devices, arguments: arguments)
  let status = try #require(run.process.waitForExit(timeout: 30), "orientd \(arguments) did not finish")
  return (status, run.process.stdout, run.process.stderr)
}
