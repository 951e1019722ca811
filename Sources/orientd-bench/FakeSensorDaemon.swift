import OrientSystem

/// orientd running inside a umockdev testbed with one fake accelerometer that can
/// also deliver buffer scans through a FIFO at its device node.
///
/// `try?` here: probes retried until they answer (the testbed, the FIFO, the threads),
/// best-effort scans for a measurement, and teardown (a process already gone is the goal).
final class FakeSensorDaemon {
  let wrapper: ProcessID
  let testbed: String
  let pid: ProcessID
  let socket: String
  private let scratch: ScratchDirectory
  private var fifo: FileDescriptor?

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
    scratch = try ScratchDirectory()
    let directory = scratch.path
    socket = directory + "/s"
    try FileDescriptor.open(directory + "/accel.umockdev", .writeOnly, options: [.create, .truncate])
      .writeAll(
        Self.deviceText)
    try FileDescriptor.open(directory + "/none.conf", .writeOnly, options: [.create, .truncate]).writeAll("")
    // Each hand-off file is written whole and then renamed, so a reader never sees half of it.
    let script = """
      rm -f "$UMOCKDEV_DIR/dev/iio:device0" && mkfifo "$UMOCKDEV_DIR/dev/iio:device0"
      printf %s "$UMOCKDEV_DIR" > \(directory)/testbed.tmp && mv \(directory)/testbed.tmp \(directory)/testbed
      "$@" & echo $! > \(directory)/pid.tmp && mv \(directory)/pid.tmp \(directory)/pid
      wait $!
      """
    var spawn = Spawn(
      [umockdev, "--device", directory + "/accel.umockdev", "--", "/bin/sh", "-c", script, "sh", orientd]
        + arguments + [
          "--socket", socket, "--state", directory + "/state", "--config", directory + "/none.conf",
        ])
    spawn.standardOutput = .file("/dev/null", .writeOnly)
    spawn.standardError = .file(directory + "/stderr", .writeOnly, [.create, .truncate])
    wrapper = try spawn.start()
    var found: (String, ProcessID)?
    for _ in 0..<500 {
      if let bed = try? FileSystem.readText(directory + "/testbed"),
        let pidText = try? FileSystem.readText(directory + "/pid"),
        let number = Int32(pidText.split(separator: "\n").first ?? ""), let pid = ProcessID(number),
        FileSystem.exists(socket)
      {
        found = (bed, pid)
        break
      }
      pause(for: .milliseconds(10))
    }
    guard let found else {
      try? wrapper.send(.kill)
      _ = try? wrapper.wait()
      throw SystemError("orientd did not start under umockdev", code: .timedOut)
    }
    (testbed, pid) = found
  }

  /// Writes one s16 x, y, z scan to the device node.
  func writeScan(_ x: Int16, _ y: Int16, _ z: Int16) {
    if fifo == nil { fifo = try? FileDescriptor.open(testbed + "/dev/iio:device0", .readWrite) }
    var bytes: [UInt8] = []
    for value in [x, y, z] {
      bytes += [UInt8(truncatingIfNeeded: value), UInt8(truncatingIfNeeded: value >> 8)]
    }
    _ = try? bytes.withUnsafeBytes { try fifo?.writeAll($0) }
  }

  /// Voluntary context switches of all of orientd's threads: how often it went to sleep.
  var voluntarySwitches: Int {
    let tasks = (try? FileSystem.entries(of: "/proc/\(pid)/task")) ?? []
    return tasks.reduce(0) { total, task in
      let status = (try? FileSystem.readText("/proc/\(pid)/task/\(task)/status")) ?? ""
      let line = status.split(separator: "\n").first { $0.hasPrefix("voluntary_ctxt_switches:") }
      return total + (line.flatMap { Int($0.split(separator: "\t").last ?? "") } ?? 0)
    }
  }

  /// Whether orientd's log mentions `text`.
  func logContains(_ text: String) -> Bool {
    ((try? FileSystem.readText(scratch.path + "/stderr")) ?? "").contains(text)
  }

  func stop() {
    fifo = nil
    try? pid.send(.terminate)
    _ = try? wrapper.wait()
  }
}
