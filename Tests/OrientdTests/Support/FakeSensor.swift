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
  /// scan indexes 0 to 2, a 5 Hz sampling frequency, and everything disabled; its buffer's
  /// length and watermark are the kernel's defaults (2 and 1), as a HID sensor hub's are.
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
      ("buffer/enable", "0"), ("buffer/length", "2"), ("buffer/watermark", "1"),
      ("trigger/current_trigger", ""),
      ("sampling_frequency", "5"), ("sampling_frequency_available", "1 5 20 50"),
    ]
    return device
  }

  /// An accelerometer with accel x, y and z scan elements but no `in_accel_{x,y,z}_raw`, as
  /// some drivers offer: only its buffer gives readings. `scale` nil leaves the scale out.
  static func scanOnlyAccelerometer(scale: String? = "0.038307") -> FakeDevice {
    var device = bufferedAccelerometer()
    device.attributes.removeAll { $0.0.hasSuffix("_raw") || $0.0 == "in_accel_scale" }
    if let scale { device.attributes.append(("in_accel_scale", scale)) }
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

/// A umockdev testbed's fake sysfs, as a test reads and changes it.
protocol FakeSysfs {
  /// The testbed's root directory.
  var testbed: String { get }
  /// The devices in it, by index.
  var devices: [FakeDevice] { get }
}

extension FakeSysfs {
  /// The path of an attribute of device `index` inside the testbed.
  func path(_ attribute: String, device index: Int = 0) -> String {
    testbed + "/sys" + devices[index].sysfsPath + "/" + attribute
  }

  /// Reads an attribute of device `index`, without its newline (or the NUL libiio writes).
  func read(_ attribute: String, device index: Int = 0) -> String {
    let text = (try? String(contentsOfFile: path(attribute, device: index), encoding: .utf8)) ?? "<missing>"
    return text.trimmingCharacters(in: CharacterSet(charactersIn: "\n\u{0}"))
  }

  /// Sets a sysfs attribute of device `index` to `value` plus a newline, as the kernel
  /// shows values.
  ///
  /// As umockdev's own `set_attribute` does, the value is written to a new file that is
  /// renamed over the old one: a reader never sees the file empty, as it would between a
  /// truncation and a write (libiio reads an empty attribute as EIO). orientd reads a test
  /// tree, which is not sysfs, through libiio, so it sees the new file at its next poll.
  func write(_ attribute: String, _ value: String, device index: Int = 0) throws {
    let path = path(attribute, device: index)
    // Written beside the tree, not in the device's directory: libiio lists that directory when
    // orientd opens its context and stats every name in it, and a new file renamed away
    // between the two made the whole context fail (ENOENT) for a run that had just started.
    let fresh = testbed + "/.attribute-\(index)-\(attribute).new"
    let fd = open(fresh, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o644)
    guard fd >= 0 else { throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO) }
    let bytes = Array((value + "\n").utf8)
    let written = bytes.withUnsafeBytes { Glibc.write(fd, $0.baseAddress, $0.count) }
    close(fd)
    guard written == bytes.count, rename(fresh, path) == 0 else {
      unlink(fresh)
      throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO)
    }
  }

  /// Sets the access time of an attribute to 1970. The next read of the file moves it to the
  /// present (with relatime, a read updates an access time older than the last change), so
  /// `hasBeenRead` tells whether anything read the file since.
  func markUnread(_ attribute: String, device index: Int = 0) throws {
    // UTIME_OMIT: the modification time stays.
    var times = [timespec(tv_sec: 0, tv_nsec: 0), timespec(tv_sec: 0, tv_nsec: (1 << 30) - 2)]
    guard utimensat(AT_FDCWD, path(attribute, device: index), &times, 0) == 0 else {
      throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO)
    }
  }

  /// Whether the attribute was read since `markUnread`.
  func hasBeenRead(_ attribute: String, device index: Int = 0) -> Bool {
    var info = stat()
    return stat(path(attribute, device: index), &info) == 0 && info.st_atim.tv_sec != 0
  }

  /// Waits until orientd has polled device `index` `count` times after this call. A poll reads
  /// x, then y, then z, so the first poll that reads x after the call sees everything written
  /// before it. False when the polls did not come.
  func waitForPolls(_ count: Int = 1, device index: Int = 0, timeout: Double = patience) throws -> Bool {
    for _ in 0..<count {
      try markUnread("in_accel_x_raw", device: index)
      guard waitUntil(timeout: timeout, { hasBeenRead("in_accel_x_raw", device: index) }) else {
        return false
      }
    }
    return true
  }

  /// Sets the three raw readings of device `index`.
  func setRaw(_ x: Int, _ y: Int, _ z: Int, device index: Int = 0) throws {
    try write("in_accel_x_raw", "\(x)", device: index)
    try write("in_accel_y_raw", "\(y)", device: index)
    try write("in_accel_z_raw", "\(z)", device: index)
  }

}

/// `orientd` running inside a umockdev testbed holding fake devices.
///
/// The testbed outlives orientd until the run is dropped, so a test can check what
/// orientd left in sysfs after it exited. The wrapper script hands the test orientd's pid
/// and its exit status through files it writes whole (written aside, then renamed), and
/// ends when the test releases it through a FIFO: at the latest when the test process dies.
final class FakeSensorRun: FakeSysfs {
  let process: TestProcess
  let testbed: String
  let devices: [FakeDevice]
  /// The wrapped program (orientd, or iiod) and the shell that started and waits for it.
  let programPID: pid_t
  private let wrapperPID: pid_t
  private let control: String
  private let release: Int32

  /// Starts `orientd ARGUMENTS` under umockdev-run with `devices`, and waits for the testbed.
  /// `prepare` is shell run inside the testbed first; `bufferFIFO` replaces the first
  /// device's node with a FIFO that `writeScans` feeds. `launcher` runs before the program
  /// and must exec it, so that its process id stays the program's (`unshare`, `FakeLogind`).
  init(
    devices: [FakeDevice], arguments: [String], prepare: String = "", bufferFIFO: Bool = false,
    fifoDevices: [Int] = [], executable: String = TestPaths.orientd, launcher: [String] = []
  ) throws {
    let umockdev = try #require(
      TestPaths.which("umockdev-run"), "umockdev-run is missing: apt-get install umockdev")
    let scratch = try Scratch.current()
    let directory = try scratch.makeDirectory("umockdev")
    control = directory
    let deviceFile = directory + "/devices.umockdev"
    try devices.map(\.umockdevText).joined(separator: "\n").write(
      toFile: deviceFile, atomically: true, encoding: .utf8)
    guard mkfifo(directory + "/release", 0o600) == 0 else { throw POSIXError(.EIO) }
    // Read-write: never waits for the reader, and holds the FIFO open for the wrapper.
    release = open(directory + "/release", O_RDWR | O_CLOEXEC)
    guard release >= 0 else { throw POSIXError(.EIO) }
    var steps = prepare.isEmpty ? [] : [prepare]
    let fifos = (bufferFIFO && !devices.isEmpty ? [0] : []) + fifoDevices
    for node in Set(fifos).sorted().map({ devices[$0].id }) {
      steps.append(
        "rm -f \"$UMOCKDEV_DIR/dev/\(node)\" && mkfifo \"$UMOCKDEV_DIR/dev/\(node)\" && [ -p \"$UMOCKDEV_DIR/dev/\(node)\" ]"
          + " || echo \"testbed: cannot make the FIFO $UMOCKDEV_DIR/dev/\(node)\" >&2")
    }
    steps += [
      "printf %s \"$UMOCKDEV_DIR\" > \(directory)/testbed.tmp && mv \(directory)/testbed.tmp \(directory)/testbed",
      "\"$@\" &", "echo \"$! $$\" > \(directory)/pid.tmp && mv \(directory)/pid.tmp \(directory)/pid",
      "wait $!; echo $? > \(directory)/status.tmp && mv \(directory)/status.tmp \(directory)/status",
      // Until the test is done reading the testbed (or gone: then the read sees end of file).
      "read done < \(directory)/release",
    ]
    let deviceArguments = devices.isEmpty ? [] : ["--device", deviceFile]
    let programArguments =
      executable == TestPaths.orientd
      ? try TestPaths.isolated(orientdArguments: arguments, in: scratch) : arguments
    process = try TestProcess(
      [umockdev] + deviceArguments + [
        "--", "/bin/sh", "-c", steps.joined(separator: "\n"), "sh",
      ]
        + launcher + [executable] + programArguments)
    let process = process
    let started = waitUntil {
      FileManager.default.fileExists(atPath: directory + "/pid") || !process.isRunning
    }
    guard started, FileManager.default.fileExists(atPath: directory + "/pid") else {
      close(release)
      Issue.record("umockdev-run did not start \(executable): \(process.stderr)")
      throw POSIXError(.ECHILD)
    }
    testbed = try String(contentsOfFile: directory + "/testbed", encoding: .utf8)
    let pids = try String(contentsOfFile: directory + "/pid", encoding: .utf8).split(separator: " ")
    guard pids.count == 2, let program = parsePID(String(pids[0]), from: "the pid file"),
      let wrapper = parsePID(String(pids[1]), from: "the pid file")
    else {
      close(release)
      throw POSIXError(.ECHILD)
    }
    programPID = program
    wrapperPID = wrapper
    self.devices = devices
  }

  deinit {
    if scanWriter >= 0 { close(scanWriter) }
    for writer in nodeWriters.values { close(writer) }
    if exitStatus == nil {
      self.signal(SIGKILL)
      if waitForExit() == nil {
        Issue.record("\(process.name)'s program (pid \(programPID)) survived SIGKILL")
      }
    }
    _ = Glibc.write(release, "done\n", 5)
    process.waitForExit()
    close(release)
  }

  /// The program's exit status once it has exited, or nil if it has not within `timeout`.
  func waitForExit(timeout: Double = patience) -> Int32? {
    waitUntil(timeout: timeout) { exitStatus != nil }
    return exitStatus
  }

  private var exitStatus: Int32? {
    guard let text = try? String(contentsOfFile: control + "/status", encoding: .utf8) else { return nil }
    return Int32(text.trimmingCharacters(in: .whitespacesAndNewlines))
  }

  /// Signals the program if it still runs: it is then still the wrapper shell's child, which
  /// it stops being once it has exited and been reaped (and its pid is free for reuse).
  func signal(_ signal: Int32) {
    guard exitStatus == nil, parentPID(of: programPID) == wrapperPID else { return }
    sendSignal(signal, to: programPID, "the program under umockdev-run")
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

  private var nodeWriters: [Int: Int32] = [:]

  /// Writes `bytes` to the FIFO that stands for device `index`'s node (`fifoDevices`), as the
  /// kernel's buffer would deliver scans. The writer stays open for the rest of the run, so
  /// orientd never sees a hang-up.
  func writeNode(_ bytes: [UInt8], device index: Int) throws {
    if nodeWriters[index] == nil {
      let writer = open(testbed + "/dev/" + devices[index].id, O_RDWR | O_CLOEXEC)
      guard writer >= 0 else { throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO) }
      nodeWriters[index] = writer
    }
    let written = bytes.withUnsafeBytes { Glibc.write(nodeWriters[index]!, $0.baseAddress, $0.count) }
    guard written == bytes.count else { throw POSIXError(.EIO) }
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
    self.signal(signal)
    return waitForExit()
  }
}

/// orientd on fake devices serving a socket (and a state file) in the scratch directory;
/// waits until it serves. Returns the run and the socket path.
func servingFakeSensor(
  _ devices: [FakeDevice], extra: [String], prepare: String = "", ready: String = "info: orientation"
) throws -> (run: FakeSensorRun, socket: String) {
  let directory = try Scratch.current().makeDirectory("daemon")
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
  let status = try #require(run.waitForExit(), "orientd \(arguments) did not finish")
  return (status, run.process.stdout, run.process.stderr)
}
