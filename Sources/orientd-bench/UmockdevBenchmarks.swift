import CLinux
import Glibc
import OrientSystem

/// orientd running inside a umockdev testbed with one fake accelerometer that can
/// also deliver buffer scans through a FIFO at its device node.
final class FakeSensorDaemon {
  let wrapper: pid_t
  let directory: String
  let testbed: String
  let pid: pid_t
  let socket: String
  private var fifo: Int32 = -1

  static let deviceText = """
    P: /devices/platform/accel/iio:device0
    N: iio:device0
    E: SUBSYSTEM=iio
    E: DEVNAME=/dev/iio:device0
    A: name=accel_3d\\n
    A: in_accel_x_raw=0\\n
    A: in_accel_y_raw=-256\\n
    A: in_accel_z_raw=0\\n
    A: in_accel_scale=0.038307\\n
    A: scan_elements/in_accel_x_en=0\\n
    A: scan_elements/in_accel_x_index=0\\n
    A: scan_elements/in_accel_x_type=le:s16/16>>0\\n
    A: scan_elements/in_accel_y_en=0\\n
    A: scan_elements/in_accel_y_index=1\\n
    A: scan_elements/in_accel_y_type=le:s16/16>>0\\n
    A: scan_elements/in_accel_z_en=0\\n
    A: scan_elements/in_accel_z_index=2\\n
    A: scan_elements/in_accel_z_type=le:s16/16>>0\\n
    A: buffer/enable=0\\n
    A: buffer/length=0\\n
    A: trigger/current_trigger=\\n

    """

  /// Starts `orientd ARGUMENTS` (plus a socket) in a testbed whose device node is a FIFO.
  init(orientd: String, umockdev: String, arguments: [String]) throws {
    var template = Array("/tmp/orientd-bench.XXXXXX".utf8CString)
    guard let made = mkdtemp(&template) else { throw SystemError("mkdtemp") }
    directory = String(cString: made)
    socket = directory + "/s"
    let device = try FileDescriptor.open(directory + "/accel.umockdev", O_WRONLY | O_CREAT | O_TRUNC)
    device.writeAll(Self.deviceText)
    device.close()
    let script = """
      rm -f "$UMOCKDEV_DIR/dev/iio:device0" && mkfifo "$UMOCKDEV_DIR/dev/iio:device0"
      printf %s "$UMOCKDEV_DIR" > \(directory)/testbed
      "$@" & echo $! > \(directory)/pid
      wait $!
      """
    let argv =
      [umockdev, "--device", directory + "/accel.umockdev", "--", "/bin/sh", "-c", script, "sh", orientd]
      + arguments + ["--socket", socket, "--state", directory + "/state"]
    wrapper = try spawnProcess(argv, stdout: "/dev/null", stderr: directory + "/stderr")
    var found: (String, pid_t)?
    for _ in 0..<500 {
      if let bed = try? readTextFile(directory + "/testbed"),
        let pidText = try? readTextFile(directory + "/pid"),
        let number = Int32(pidText.split(separator: "\n").first ?? ""), access(socket, F_OK) == 0
      {
        found = (bed, number)
        break
      }
      usleep(10_000)
    }
    guard let found else { throw SystemError("orientd did not start under umockdev", code: ETIMEDOUT) }
    (testbed, pid) = found
  }

  /// Writes one s16 x, y, z scan to the device node.
  func writeScan(_ x: Int16, _ y: Int16, _ z: Int16) {
    if fifo < 0 { fifo = open(testbed + "/dev/iio:device0", O_RDWR | O_CLOEXEC) }
    var bytes: [UInt8] = []
    for value in [x, y, z] {
      bytes += [UInt8(truncatingIfNeeded: value), UInt8(truncatingIfNeeded: value >> 8)]
    }
    _ = bytes.withUnsafeBytes { write(fifo, $0.baseAddress, $0.count) }
  }

  /// Voluntary context switches of all of orientd's threads: how often it went to sleep.
  var voluntarySwitches: Int {
    guard let tasks = opendir("/proc/\(pid)/task") else { return 0 }
    defer { closedir(tasks) }
    var total = 0
    while let entry = readdir(tasks) {
      let name = withUnsafeBytes(of: entry.pointee.d_name) {
        String(decoding: $0.prefix(while: { $0 != 0 }), as: UTF8.self)
      }
      guard !name.hasPrefix("."), let text = try? readTextFile("/proc/\(pid)/task/\(name)/status") else {
        continue
      }
      for line in text.split(separator: "\n") where line.hasPrefix("voluntary_ctxt_switches:") {
        total += Int(line.split(separator: "\t").last ?? "") ?? 0
      }
    }
    return total
  }

  /// Whether orientd's log mentions `text`.
  func logContains(_ text: String) -> Bool {
    ((try? readTextFile(directory + "/stderr")) ?? "").contains(text)
  }

  func stop() {
    if fifo >= 0 { close(fifo) }
    kill(pid, SIGTERM)
    var status: Int32 = 0
    waitpid(wrapper, &status, 0)
    for name in ["accel.umockdev", "testbed", "pid", "stderr", "state", "s"] {
      unlink(directory + "/" + name)
    }
    rmdir(directory)
  }
}

/// Latency from a scan written to the device node to its orientation event at a subscriber.
func bufferLatency(orientd: String, umockdev: String, changes: Int) throws -> (p50: Double, p99: Double) {
  let daemon = try FakeSensorDaemon(
    orientd: orientd, umockdev: umockdev, arguments: ["--mode", "buffer", "--settle", "0"])
  defer { daemon.stop() }
  for _ in 0..<200 where !daemon.logContains("capture mode buffer") { usleep(10_000) }
  let subscriber = try BenchClient(path: daemon.socket)
  _ = subscriber.readLines(5)
  var latencies: [Double] = []
  for change in 0..<(changes + 5) {
    let start = now()
    if change % 2 == 0 { daemon.writeScan(256, 0, 0) } else { daemon.writeScan(0, -256, 0) }
    var seen = false
    while !seen {
      for line in subscriber.readAvailable() where line.hasPrefix("orientation ") { seen = true }
    }
    if change >= 5 { latencies.append(now() - start) }
  }
  return (percentile(latencies, 0.5), percentile(latencies, 0.99))
}

/// Wake-ups (voluntary context switches of every thread) per second over `seconds` with
/// the sensor silent in buffer mode, or polled every `interval` ms.
func wakeUps(orientd: String, umockdev: String, arguments: [String], seconds: UInt32, settle: String) throws
  -> Double
{
  let daemon = try FakeSensorDaemon(orientd: orientd, umockdev: umockdev, arguments: arguments)
  defer { daemon.stop() }
  for _ in 0..<300 where !daemon.logContains(settle) { usleep(10_000) }
  // Past the first change and the memory settling 2 s after it.
  sleep(3)
  let before = daemon.voluntarySwitches
  sleep(seconds)
  return Double(daemon.voluntarySwitches - before) / Double(seconds)
}
