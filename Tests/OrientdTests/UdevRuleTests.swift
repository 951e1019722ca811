import Foundation
import Testing

/// The shipped udev rule, run by udev's own `udevadm test` on fake devices.
@Suite("The udev rule that starts orientd", .scratch)
struct UdevRuleTests {
  /// The properties `udevadm test` gives `device` on add with the shipped rule in place.
  ///
  /// udevadm runs inside umockdev's testbed (its sysfs) and a mount namespace of its own: a
  /// tmpfs on /run holds the rule (udev reads /run/udev/rules.d) and the database udevadm
  /// writes, and one on /etc/udev/rules.d hides the machine's local rules, so nothing of the
  /// machine is read in their place or written.
  static func properties(of device: FakeDevice) throws -> [String: String] {
    let unshare = try #require(TestPaths.which("unshare"), "unshare is missing (util-linux)")
    let umockdev = try #require(TestPaths.which("umockdev-run"), "umockdev-run is missing")
    let udevadm = try #require(TestPaths.which("udevadm"), "udevadm is missing (udev)")
    let directory = try Scratch.current().makeDirectory("udev")
    let devices = directory + "/devices.umockdev"
    try device.umockdevText.write(toFile: devices, atomically: true, encoding: .utf8)
    let script = """
      mount -t tmpfs tmpfs /run && mkdir -p /run/udev/rules.d && cp "$1" /run/udev/rules.d/ || exit 90
      if [ -d /etc/udev/rules.d ]; then mount -t tmpfs tmpfs /etc/udev/rules.d || exit 91; fi
      exec "$2" --device "$3" -- "$4" test --action=add "/sys$5"
      """
    let result = try runToCompletion([
      unshare, "--mount", "--propagation", "private", "/bin/sh", "-c", script, "sh",
      TestPaths.packageRoot + "/systemd/61-orientd.rules", umockdev, devices, udevadm, device.sysfsPath,
    ])
    try #require(result.status == 0, "udevadm test failed (\(result.status)): \(result.stderr)")
    #expect(
      result.stderr.contains("Reading rules file: /run/udev/rules.d/61-orientd.rules"),
      "the rule was not read: \(result.stderr)")
    var properties: [String: String] = [:]
    for line in result.stdout.split(separator: "\n") {
      guard let equals = line.firstIndex(of: "=") else { continue }
      properties[String(line[..<equals])] = String(line[line.index(after: equals)...])
    }
    return properties
  }

  @Test(
    "A polled accelerometer, one with a buffer, and one read only through its buffer each want orientd.service once",
    arguments: [
      ("polled", FakeDevice.accelerometer()), ("polled and buffered", FakeDevice.bufferedAccelerometer()),
      ("buffer only", FakeDevice.scanOnlyAccelerometer()),
    ])
  func accelerometersStartOrientd(kind: String, device: FakeDevice) throws {
    let properties = try Self.properties(of: device)
    let wants = (properties["SYSTEMD_WANTS"] ?? "").split(separator: " ")
    #expect(wants.filter { $0 == "orientd.service" }.count == 1, "\(kind): \(properties)")
    #expect(properties["TAGS"]?.contains(":systemd:") == true, "\(kind): \(properties)")
  }

  @Test("An IIO device that is no accelerometer does not start orientd")
  func otherSensorsDoNot() throws {
    let light = FakeDevice(
      sysfsPath: "/devices/platform/als/iio:device0", id: "iio:device0",
      attributes: [
        ("name", "als"), ("in_illuminance_raw", "40"), ("scan_elements/in_illuminance_en", "0"),
      ])
    let properties = try Self.properties(of: light)
    #expect(properties["SYSTEMD_WANTS"]?.contains("orientd.service") != true, "\(properties)")
  }
}
