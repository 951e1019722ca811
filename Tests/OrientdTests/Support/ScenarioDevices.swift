import Foundation
import Testing

/// Fake devices shaped like the ones iio-sensor-proxy's integration test builds, and the
/// means to run that daemon next to orientd on them.
extension FakeDevice {
  /// A polled accelerometer as iio-sensor-proxy's test describes it: raw values given as
  /// text (its test writes `-25.6`, which the kernel never would), a shared scale, a
  /// `sampling_frequency` of 5.2 and the name `IIO Test Accelerometer`.
  static func testAccelerometer(
    raw: (String, String, String), scale: String?,
    path: String = "/devices/platform/accel/iio:device0", id: String = "iio:device0"
  ) -> FakeDevice {
    var attributes = [
      ("name", "IIO Test Accelerometer"), ("in_accel_x_raw", raw.0), ("in_accel_y_raw", raw.1),
      ("in_accel_z_raw", raw.2), ("sampling_frequency", "5.2"),
    ]
    if let scale { attributes.append(("in_accel_scale", scale)) }
    return FakeDevice(sysfsPath: path, id: id, attributes: attributes)
  }

  /// A buffered accelerometer as iio-sensor-proxy's test describes it: x, y and z as
  /// `le:s16/32>>0` (16 bits used of 32 stored) at scan indexes 0 to 2, a timestamp at 3,
  /// everything disabled. With `rawFiles` it also has `in_accel_{x,y,z}_raw` holding `raw`
  /// (iio-sensor-proxy's device has none).
  static func testBufferedAccelerometer(rawFiles: Bool, raw: (Int, Int, Int) = (0, 0, 0)) -> FakeDevice {
    var attributes = [("name", "IIO Test Accelerometer")]
    if rawFiles {
      attributes += [
        ("in_accel_x_raw", "\(raw.0)"), ("in_accel_y_raw", "\(raw.1)"), ("in_accel_z_raw", "\(raw.2)"),
      ]
    }
    attributes += [("buffer/enable", "0"), ("trigger/current_trigger", "")]
    for (index, axis) in ["x", "y", "z"].enumerated() {
      attributes += [
        ("scan_elements/in_accel_\(axis)_en", "0"), ("scan_elements/in_accel_\(axis)_index", "\(index)"),
        ("scan_elements/in_accel_\(axis)_type", "le:s16/32>>0"),
      ]
    }
    attributes += [
      ("scan_elements/in_timestamp_en", "1"), ("scan_elements/in_timestamp_index", "3"),
      ("scan_elements/in_timestamp_type", "le:s64/64>>0"),
    ]
    return FakeDevice(
      sysfsPath: "/devices/platform/accel/iio:device0", id: "iio:device0", attributes: attributes)
  }

  /// The udev property iio-sensor-proxy's rules give an IIO accelerometer: without it the
  /// daemon ignores the device. orientd does not read it.
  var forSensorProxy: FakeDevice { with(property: "IIO_SENSOR_PROXY_TYPE", "iio-poll-accel") }

  /// Removes an attribute.
  func without(attribute name: String) -> FakeDevice {
    var copy = self
    copy.attributes.removeAll { $0.0 == name }
    return copy
  }
}

extension FakeSensorRun {
  /// Writes scans of x, y and z stored as 32 bits each, little-endian, holding 16 used bits
  /// (`le:s16/32>>0`). The 16 unused bits are zero: a reader must mask them off and extend
  /// the sign itself, as the kernel's ABI asks.
  func writeScans32(_ scans: [(Int16, Int16, Int16)]) throws {
    // An empty write opens the run's own writer, which holds the FIFO open for the rest of
    // the run: closing this one below then never gives orientd a hang-up.
    writeScans([])
    let node = open(testbed + "/dev/" + devices[0].id, O_WRONLY | O_NONBLOCK | O_CLOEXEC)
    guard node >= 0 else { throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO) }
    defer { close(node) }
    var bytes: [UInt8] = []
    for (x, y, z) in scans {
      for value in [x, y, z] {
        bytes += [UInt8(truncatingIfNeeded: value), UInt8(truncatingIfNeeded: value >> 8), 0, 0]
      }
    }
    let written = bytes.withUnsafeBytes { Glibc.write(node, $0.baseAddress, $0.count) }
    guard written == bytes.count else { throw POSIXError(.EIO) }
  }
}

/// orientd on fake devices, its socket watched by a long-running `orientctl monitor`.
final class WatchedDaemon {
  let run: FakeSensorRun
  let socket: String
  let monitor: TestProcess

  /// Whether orientd got to listen on its socket (false when it exited first).
  let isListening: Bool

  /// Starts orientd (polling every `intervalMilliseconds`, settle `settleMilliseconds`, `extra` after that) and waits until it
  /// listens, or, when `mustListen` is false, until it listens or exits. `bufferFIFO` makes
  /// the first device's node a FIFO.
  init(
    _ devices: [FakeDevice], extra: [String] = [], prepare: String = "", bufferFIFO: Bool = false,
    mustListen: Bool = true, settleMilliseconds: Int = 0, intervalMilliseconds: Int = 20
  ) throws {
    let directory = try Scratch.current().makeDirectory("daemon")
    socket = directory + "/s"
    let run = try FakeSensorRun(
      devices: devices,
      arguments: ["--interval", "\(intervalMilliseconds)", "--settle", "\(settleMilliseconds)"] + extra + [
        "--socket", socket, "--state", directory + "/state",
      ],
      prepare: prepare, bufferFIFO: bufferFIFO)
    self.run = run
    waitUntil { run.process.stderr.contains("listening on") || run.waitForExit(timeout: 0) != nil }
    isListening = run.process.stderr.contains("listening on")
    if mustListen {
      try #require(isListening, "orientd did not start: \(run.process.stderr)")
    }
    monitor = try TestProcess([TestPaths.orientctl, "--socket", socket, "monitor"])
  }

  /// The last line `orientctl monitor` printed that starts with `field`, without the field.
  func last(_ field: String) -> String? {
    monitor.stdoutLines.last { $0.hasPrefix(field + " ") }.map { String($0.dropFirst(field.count + 1)) }
  }

  /// Waits until the last `field` line says `value`.
  @discardableResult
  func waitFor(_ field: String, _ value: String, timeout: Double = patience) -> Bool {
    waitUntil(timeout: timeout) { last(field) == value }
  }

  /// What `orientctl get FIELD` prints, without its newline.
  func get(_ field: String) throws -> String {
    let result = try runToCompletion([TestPaths.orientctl, "--socket", socket, "get", field])
    return result.stdout.trimmingCharacters(in: .newlines)
  }

  /// Every `field` line `orientctl monitor` printed, in order, without the `undefined` of a
  /// first snapshot taken before orientd read its first sample.
  func all(_ field: String) -> [String] {
    let values = monitor.stdoutLines.filter { $0.hasPrefix(field + " ") }.map {
      String($0.dropFirst(field.count + 1))
    }
    return values.first == "undefined" ? Array(values.dropFirst()) : values
  }

  /// Stops the monitor and orientd; returns orientd's exit status.
  func stop() -> Int32? {
    monitor.signal(SIGTERM)
    _ = monitor.waitForExit()
    return run.stop()
  }
}

/// Debian's iio-sensor-proxy on the same kind of fake device, on a private system bus,
/// watched by its own client `monitor-sensor`: the reference orientd is compared with.
///
/// All three run inside one umockdev testbed, started by a script that ends them on
/// SIGTERM. iio-sensor-proxy polls every 700 ms and never debounces.
final class SensorProxyPeer {
  let run: FakeSensorRun
  /// Where iio-sensor-proxy's exit status goes, on a shared bus.
  let statusPath: String

  /// iio-sensor-proxy's exit status once it has exited by itself (on a shared bus only).
  var proxyExitStatus: String? {
    (try? String(contentsOfFile: statusPath, encoding: .utf8))?.trimmingCharacters(
      in: .whitespacesAndNewlines)
  }

  /// Fails unless the peer's programs are installed (Debian packages iio-sensor-proxy and
  /// dbus, which the test command's bootstrap installs): a comparison must not pass unrun.
  static func requireInstalled() throws {
    try #require(
      FileManager.default.isExecutableFile(atPath: "/usr/sbin/iio-sensor-proxy")
        && TestPaths.which("monitor-sensor") != nil && TestPaths.which("dbus-daemon") != nil,
      "iio-sensor-proxy, monitor-sensor or dbus-daemon is missing: apt-get install iio-sensor-proxy dbus")
  }

  /// Starts the peer on `devices`, on a bus of its own or on `sharedBus`; fails unless it is
  /// installed. With `monitorOnceNamed` monitor-sensor starts only once iio-sensor-proxy owns
  /// its name (`gdbus wait`), not while it starts.
  ///
  /// On a bus of its own, the peer is started that way and returns only once monitor-sensor has
  /// said whether iio-sensor-proxy has an accelerometer: a slow start (iio-sensor-proxy under
  /// umockdev on a loaded machine) is waited for here, with `startupPatience`, so the test's own
  /// waits measure only the behaviour they check.
  ///
  /// iio-sensor-proxy owns its name before it has found every sensor: a monitor-sensor started
  /// then says `+++ Light sensor appeared` where one started later lists the sensor among the
  /// first lines. With `sensorsFound` (properties such as `HasAmbientLight`) monitor-sensor
  /// starts only once each of them reads true, as it would on a machine booted long ago.
  init(
    _ devices: [FakeDevice], sharedBus: TestBus? = nil, monitorOnceNamed: Bool? = nil,
    fifoDevices: [Int] = [], sensorsFound: [String] = [],
    withMonitor: Bool = true
  ) throws {
    let monitorOnceNamed = monitorOnceNamed ?? (sharedBus == nil)
    try Self.requireInstalled()
    let directory = try Scratch.current().makeDirectory("proxy")
    let bus = sharedBus?.socket ?? directory + "/bus"
    let config = try String(
      contentsOfFile: TestPaths.packageRoot + "/Tests/Fixtures/private-system-bus.conf", encoding: .utf8
    )
    .replacingOccurrences(of: "@BUS@", with: bus)
    try config.write(toFile: directory + "/bus.conf", atomically: true, encoding: .utf8)
    // Waits for the bus socket as an event (a file appearing), not for a fixed time. On a
    // shared bus `bus` names no process: the kills below skip it.
    let startBus =
      sharedBus == nil
      ? """
      dbus-daemon --config-file=\(directory)/bus.conf --nofork & bus=$!
      while [ ! -S \(bus) ] && kill -0 $bus 2>/dev/null; do sleep 0.01; done
      """ : "bus="
    // On a shared bus iio-sensor-proxy may find the name taken and exit by itself: its status
    // is kept in proxy.status (a shell in between, which passes a TERM on). It is written aside
    // and renamed, so a reader never sees the file created but still empty.
    let startProxy =
      sharedBus == nil
      ? "/usr/sbin/iio-sensor-proxy > \(directory)/proxy.log 2>&1"
      : "sh -c 'trap \"kill \\$p\" TERM; /usr/sbin/iio-sensor-proxy > \(directory)/proxy.log 2>&1 & p=$!; "
        + "wait $p; echo $? > \(directory)/proxy.status.new; mv \(directory)/proxy.status.new \(directory)/proxy.status'"
    statusPath = directory + "/proxy.status"
    let script = """
      #!/bin/sh
      \(startBus)
      export DBUS_SYSTEM_BUS_ADDRESS=unix:path=\(bus)
      \(startProxy) & proxy=$!
      \(monitorOnceNamed ? "gdbus wait --system --timeout \(Int(startupPatience)) net.hadess.SensorProxy" : "")
      \(Self.waitUntilTrue(sensorsFound))
      \(withMonitor ? "monitor-sensor & monitor=$!" : "monitor=")
      trap 'kill $monitor $proxy $bus 2>/dev/null; wait; exit 0' TERM
      \(withMonitor ? "wait $monitor" : "wait $proxy")
      kill $proxy $bus 2>/dev/null
      wait

      """
    let scriptPath = directory + "/peer.sh"
    try script.write(toFile: scriptPath, atomically: true, encoding: .utf8)
    guard chmod(scriptPath, 0o755) == 0 else { throw POSIXError(.EPERM) }
    run = try FakeSensorRun(devices: devices, arguments: [], fifoDevices: fifoDevices, executable: scriptPath)
    guard sharedBus == nil else { return }
    let serving = waitUntil(timeout: startupPatience) { hasAccelerometer != nil }
    let proxyLog = (try? String(contentsOfFile: directory + "/proxy.log", encoding: .utf8)) ?? ""
    try #require(
      serving,
      "iio-sensor-proxy did not come up within \(Int(startupPatience)) s: \(run.process.stdout)\(proxyLog)")
  }

  deinit { _ = run.stop() }

  /// Shell that asks iio-sensor-proxy for each of `properties` until it reads true, for at
  /// most `startupPatience` in all; the daemon signals nothing a shell could wait on instead.
  private static func waitUntilTrue(_ properties: [String]) -> String {
    guard !properties.isEmpty else { return "" }
    let tries = Int(startupPatience * 20)
    return properties.map { property in
      "i=0; until gdbus call --system --dest net.hadess.SensorProxy --object-path /net/hadess/SensorProxy "
        + "--method org.freedesktop.DBus.Properties.Get net.hadess.SensorProxy \(property) 2>/dev/null "
        + "| grep -q true || [ $i -ge \(tries) ]; do i=$((i + 1)); sleep 0.05; done"
    }.joined(separator: "\n")
  }

  /// The orientations monitor-sensor reported so far, in order, `undefined` left out.
  var orientations: [String] {
    run.process.stdoutLines.compactMap { line in
      let value: Substring
      if let range = line.range(of: "Accelerometer orientation changed: ") {
        value = line[range.upperBound...]
      } else if let range = line.range(of: "=== Has accelerometer (orientation: ") {
        value = line[range.upperBound...].dropLast()
      } else {
        return nil
      }
      return value == "undefined" ? nil : String(value)
    }
  }

  /// Waits until monitor-sensor's last reported orientation is `orientation`.
  @discardableResult
  func waitFor(_ orientation: String, timeout: Double = patience) -> Bool {
    waitUntil(timeout: timeout) { orientations.last == orientation }
  }

  /// Whether monitor-sensor said the proxy has an accelerometer.
  var hasAccelerometer: Bool? {
    let text = run.process.stdout
    if text.contains("=== Has accelerometer") { return true }
    if text.contains("=== No accelerometer") { return false }
    return nil
  }
}

/// A locale whose decimal separator is a comma (fr_FR.UTF-8), compiled into the scratch
/// directory: the machine may have no locale but C. Returns the shell that makes a child
/// use it (for `prepare`), and the environment entries.
func commaLocale() throws -> (prepare: String, environment: [String: String]) {
  let directory = try Scratch.current().makeDirectory("locale")
  let localedef = try #require(TestPaths.which("localedef"), "localedef is missing: apt-get install libc-bin")
  let compiled = try runToCompletion([localedef, "-i", "fr_FR", "-f", "UTF-8", directory + "/fr_FR.UTF-8"])
  try #require(compiled.status == 0, "localedef could not build fr_FR.UTF-8: \(compiled.stderr)")
  let environment = ["LOCPATH": directory, "LC_ALL": "fr_FR.UTF-8"]
  let check = try runToCompletion(
    ["/usr/bin/locale", "decimal_point"],
    environment: try Scratch.current().environment.merging(environment) { $1 })
  try #require(check.stdout == ",\n", "the compiled locale does not use a decimal comma: \(check)")
  return ("export LOCPATH=\(directory) LC_ALL=fr_FR.UTF-8", environment)
}
