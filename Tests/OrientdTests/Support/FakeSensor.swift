import Foundation
import Testing

/// A fake IIO device for umockdev: sysfs attributes, udev properties, and its sysfs path.
struct FakeDevice {
  var sysfsPath: String
  var id: String
  var attributes: [(String, String)]
  var properties: [(String, String)] = []
  /// Whether the device has a /dev node (triggers have none).
  var hasNode = true

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

  /// An accelerometer that can also capture through a buffer: s16 little-endian x, y, z at
  /// scan indexes 0 to 2, a 5 Hz sampling frequency, and everything disabled.
  static func bufferedAccelerometer(raw: (Int, Int, Int) = (0, -256, 0)) -> FakeDevice {
    var device = accelerometer(raw: raw)
    for (index, axis) in ["x", "y", "z"].enumerated() {
      device.attributes += [
        ("scan_elements/in_accel_\(axis)_en", "0"), ("scan_elements/in_accel_\(axis)_index", "\(index)"),
        ("scan_elements/in_accel_\(axis)_type", "le:s16/16>>0"),
      ]
    }
    device.attributes += [
      ("scan_elements/in_timestamp_en", "1"), ("scan_elements/in_timestamp_index", "3"),
      ("scan_elements/in_timestamp_type", "le:s64/64>>0"),
      ("buffer/enable", "0"), ("buffer/length", "0"), ("trigger/current_trigger", ""),
      ("sampling_frequency", "5"), ("sampling_frequency_available", "1 5 20 50"),
    ]
    return device
  }

  /// The machine's DMI identity, as /sys/class/dmi/id shows it.
  static func dmi(_ modalias: String) -> FakeDevice {
    FakeDevice(
      sysfsPath: "/devices/virtual/dmi/id", id: "id", attributes: [("modalias", modalias)],
      properties: [("SUBSYSTEM", "dmi")], hasNode: false
    ).withoutIIOSubsystem
  }

  /// A platform device whose modalias the hwdb matches, to hold an accelerometer.
  static func platformParent(_ path: String, modalias: String) -> FakeDevice {
    FakeDevice(
      sysfsPath: path, id: "", attributes: [("modalias", modalias)], properties: [("SUBSYSTEM", "platform")],
      hasNode: false
    ).withoutIIOSubsystem
  }

  /// Whether the device gets `E: SUBSYSTEM=iio`.
  var isIIO = true

  private var withoutIIOSubsystem: FakeDevice {
    var copy = self
    copy.isIIO = false
    return copy
  }

  /// A trigger named `name` at `trigger<number>`.
  static func trigger(_ name: String, number: Int) -> FakeDevice {
    FakeDevice(
      sysfsPath: "/devices/platform/triggers/trigger\(number)", id: "trigger\(number)",
      attributes: [("name", name)],
      hasNode: false)
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
    var text =
      "P: \(sysfsPath)\n" + (hasNode ? "N: \(id)\nE: DEVNAME=/dev/\(id)\n" : "")
      + (isIIO ? "E: SUBSYSTEM=iio\n" : "")
    for (key, value) in properties { text += "E: \(key)=\(value)\n" }
    for (key, value) in attributes { text += "A: \(key)=\(value)\\n\n" }
    return text
  }
}

/// `orientd` running inside a umockdev testbed holding fake devices.
///
/// The testbed outlives orientd until the run is dropped, so a test can check what
/// orientd left in sysfs after it exited.
final class FakeSensorRun {
  let process: TestProcess
  let testbed: String
  let devices: [FakeDevice]
  private let control: String
  private(set) var orientdPID: pid_t = 0

  /// Starts `orientd ARGUMENTS` under umockdev-run with `devices`, and waits for the testbed.
  /// `prepare` is shell run inside the testbed first; `bufferFIFO` replaces the first
  /// device's node with a FIFO that `writeScans` feeds.
  init(
    devices: [FakeDevice], arguments: [String], prepare: String = "", bufferFIFO: Bool = false,
    executable: String = TestPaths.orientd
  ) throws {
    let umockdev = try #require(
      TestPaths.which("umockdev-run"), "umockdev-run is missing: apt-get install umockdev")
    let directory = try TestPaths.scratchDirectory()
    control = directory
    let deviceFile = directory + "/devices.umockdev"
    try devices.map(\.umockdevText).joined(separator: "\n").write(
      toFile: deviceFile, atomically: true, encoding: .utf8)
    var steps = prepare.isEmpty ? [] : [prepare]
    if bufferFIFO, let node = devices.first?.id {
      steps.append("rm -f \"$UMOCKDEV_DIR/dev/\(node)\" && mkfifo \"$UMOCKDEV_DIR/dev/\(node)\"")
    }
    steps += [
      "printf %s \"$UMOCKDEV_DIR\" > \(directory)/testbed.tmp",
      "mv \(directory)/testbed.tmp \(directory)/testbed",
      "\"$@\" & echo $! > \(directory)/pid", "wait $!; echo $? > \(directory)/status",
      "while [ ! -e \(directory)/done ]; do sleep 0.05; done",
    ]
    let deviceArguments = devices.isEmpty ? [] : ["--device", deviceFile]
    process = try TestProcess(
      [umockdev] + deviceArguments + [
        "--", "/bin/sh", "-c", steps.joined(separator: "\n"), "sh", executable,
      ]
        + arguments)
    let deadline = Date().addingTimeInterval(10)
    while !FileManager.default.fileExists(atPath: directory + "/pid"), Date() < deadline { usleep(5_000) }
    testbed = try String(contentsOfFile: directory + "/testbed", encoding: .utf8)
    let pidText = try String(contentsOfFile: directory + "/pid", encoding: .utf8)
    orientdPID = pid_t(pidText.trimmingCharacters(in: .whitespacesAndNewlines)) ?? 0
    self.devices = devices
  }

  deinit {
    if scanWriter >= 0 { close(scanWriter) }
    if exitStatus == nil { kill(orientdPID, SIGKILL) }
    FileManager.default.createFile(atPath: control + "/done", contents: nil)
    process.waitForExit(timeout: 10)
  }

  /// orientd's exit status once it has exited, or nil if it has not within `timeout`.
  func waitForExit(timeout: Double) -> Int32? {
    let deadline = Date().addingTimeInterval(timeout)
    repeat {
      if let status = exitStatus { return status }
      usleep(5_000)
    } while Date() < deadline
    return nil
  }

  private var exitStatus: Int32? {
    guard let text = try? String(contentsOfFile: control + "/status", encoding: .utf8) else { return nil }
    return Int32(text.trimmingCharacters(in: .whitespacesAndNewlines))
  }

  /// The path of an attribute of device `index` inside the testbed.
  func path(_ attribute: String, device index: Int = 0) -> String {
    testbed + "/sys" + devices[index].sysfsPath + "/" + attribute
  }

  /// Reads an attribute of device `index`, without its newline (or the NUL libiio writes).
  func read(_ attribute: String, device index: Int = 0) -> String {
    let text = (try? String(contentsOfFile: path(attribute, device: index), encoding: .utf8)) ?? "<missing>"
    return text.trimmingCharacters(in: CharacterSet(charactersIn: "\n\u{0}"))
  }

  private var scanWriter: Int32 = -1

  /// Writes packed little-endian s16 scans of x, y and z (6 bytes each) to the buffer FIFO.
  func writeScans(_ scans: [(Int16, Int16, Int16)]) {
    if scanWriter < 0 {
      // Read-write, so the open never waits for a reader and orientd never sees a hang-up.
      scanWriter = open(testbed + "/dev/" + devices[0].id, O_RDWR | O_CLOEXEC)
    }
    var bytes: [UInt8] = []
    for (x, y, z) in scans {
      for value in [x, y, z] {
        bytes += [UInt8(truncatingIfNeeded: value), UInt8(truncatingIfNeeded: value >> 8)]
      }
    }
    _ = bytes.withUnsafeBytes { Glibc.write(scanWriter, $0.baseAddress, $0.count) }
  }

  /// Writes a sysfs attribute of device `index` as the kernel would (value plus newline).
  func write(_ attribute: String, _ value: String, device index: Int = 0) throws {
    let path = testbed + "/sys" + devices[index].sysfsPath + "/" + attribute
    // In place, as sysfs changes: orientd keeps its attribute files open and re-reads them.
    let fd = open(path, O_WRONLY | O_TRUNC | O_CLOEXEC)
    guard fd >= 0 else { throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO) }
    defer { close(fd) }
    let bytes = Array((value + "\n").utf8)
    guard bytes.withUnsafeBytes({ Glibc.write(fd, $0.baseAddress, $0.count) }) == bytes.count else {
      throw POSIXError(.EIO)
    }
  }

  /// Sets the three raw readings of device `index`.
  func setRaw(_ x: Int, _ y: Int, _ z: Int, device index: Int = 0) throws {
    try write("in_accel_x_raw", "\(x)", device: index)
    try write("in_accel_y_raw", "\(y)", device: index)
    try write("in_accel_z_raw", "\(z)", device: index)
  }

  /// Removes device `index` as umockdev does (its files deleted), keeping a copy for `plug`.
  func unplug(device index: Int = 0) throws {
    let folder = testbed + "/sys" + devices[index].sysfsPath
    try FileManager.default.copyItem(atPath: folder, toPath: testbed + "/unplugged-\(index)")
    try FileManager.default.removeItem(atPath: folder)
  }

  /// Puts back device `index` as `unplug` removed it.
  func plug(device index: Int = 0) throws {
    try FileManager.default.moveItem(
      atPath: testbed + "/unplugged-\(index)", toPath: testbed + "/sys" + devices[index].sysfsPath)
  }

  /// Stops the program (orientd, or iiod) with `signal` and returns its exit status.
  func stop(signal: Int32 = SIGTERM) -> Int32? {
    kill(orientdPID, signal)
    return waitForExit(timeout: 10)
  }
}

/// orientd on fake devices serving a socket (and a state file) in a scratch directory;
/// waits until it serves. Returns the run and the socket path.
func servingFakeSensor(
  _ devices: [FakeDevice], extra: [String], prepare: String = "", ready: String = "info: orientation"
) throws -> (run: FakeSensorRun, socket: String) {
  let directory = try TestPaths.scratchDirectory()
  let socket = directory + "/s"
  let run = try FakeSensorRun(
    devices: devices, arguments: extra + ["--socket", socket, "--state", directory + "/state"],
    prepare: prepare)
  try #require(run.process.waitFor(ready, inStderr: true), "orientd did not get ready: \(run.process.stderr)")
  return (run, socket)
}

/// Runs `orientd ARGUMENTS` to completion inside a umockdev testbed with `devices`.
func runWithFakeDevices(_ devices: [FakeDevice], _ arguments: [String]) throws -> (
  status: Int32, stdout: String, stderr: String
) {
  let run = try FakeSensorRun(devices: devices, arguments: arguments)
  let status = try #require(run.waitForExit(timeout: 30), "orientd \(arguments) did not finish")
  return (status, run.process.stdout, run.process.stderr)
}
