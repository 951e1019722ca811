import OrientCore
import OrientSystem

extension Session {
  /// Sends `info` and returns its items by key (repeated keys keep every value, in order).
  func info() -> [InfoItem]? {
    guard connection.send("info") else { return nil }
    var items: [InfoItem] = []
    while let line = connection.readLine() {
      if let item = InfoItem(line: line) {
        items.append(item)
      } else if line == "ok" {
        return items
      } else if line.hasPrefix("error ") {
        connection.pushBack(line)
        return nil
      }
    }
    return nil
  }

  /// Prints the sample stream until interrupted: corrected g, or raw g with `raw`.
  func samples(raw: Bool) -> Int32 {
    guard connection.send("samples " + (raw ? "raw" : "corrected")) else { return lost() }
    let prefix = raw ? "raw " : "sample "
    while let line = connection.readLine(watchingOutput: true) {
      if line.hasPrefix("error ") { return refused(line) }
      guard line.hasPrefix(prefix) else { continue }
      guard write(line + "\n") else { return 0 }
    }
    return outputIsOpen ? lost() : 0
  }

  /// Raw samples collected for up to `duration` (stopping early at `enough`).
  func collectRawSamples(for duration: Duration, enough: Int) -> [Vector3] {
    guard connection.send("samples raw") else { return [] }
    let samples = collectSamples(for: duration, enough: enough)
    _ = connection.send("samples off")
    return samples
  }

  /// The sample lines that arrive within `duration` (stopping early at `enough`).
  func collectSamples(for duration: Duration, enough: Int = .max) -> [Vector3] {
    var samples: [Vector3] = []
    let deadline = MonotonicInstant.now + duration
    while samples.count < enough, MonotonicInstant.now < deadline {
      guard case .line(let line) = connection.readLine(until: deadline) else { break }
      if let sample = SampleLine(line) { samples.append(sample.vector) }
    }
    return samples
  }

  /// `orientctl doctor`: the current state explained in plain words.
  func doctor() -> Int32 {
    guard let received = info() else { return lost() }
    // What orientd reports comes from files and devices others may write (a hook's command
    // line, a device's name): no escape sequence of theirs reaches the terminal.
    let items = received.map {
      InfoItem($0.key.escapingControlCharacters, $0.value.escapingControlCharacters)
    }
    func value(_ key: String) -> String? { items.first { $0.key == key }?.value }
    var state: [String: String] = [:]
    guard connection.send("get") else { return lost() }
    while let line = connection.readLine(), line != "ok" {
      if let change = StateChange(line: line) {
        state[change.key.rawValue] = change.valueText.escapingControlCharacters
      }
    }
    if connection.timedOut { return lost() }
    var report = "orientd \(value("version") ?? "?")\n\n"
    let sensor = value("sensor") ?? "none attached"
    if sensor == "none attached" {
      report +=
        "Sensor: no sensor attached; orientd waits for an accelerometer to appear"
        + " ('orientd --list' shows what it finds).\n"
      if let problem = value("sensor-problem") { report += "  Why: \(problem).\n" }
    } else if value("device") == nil {
      // --demo or --replay.
      report += "Sensor: \(sensor). Samples come from it, not from an accelerometer.\n"
    } else {
      report += "Sensor: \(sensor), \(state["sensor"] ?? "offline").\n"
      report += "  Chosen because \(value("chosen-because") ?? "?").\n"
      report += "  Location: \(value("location") ?? "unknown"); read through \(value("uri") ?? "local:").\n"
      report += "Capture: \(value("capture") ?? "?"): \(value("capture-reason") ?? "").\n"
      report += "Scale: \(value("scale") ?? "?"); offset \(value("offset") ?? "0").\n"
      let samples = collectRawSamples(for: .seconds(3), enough: 10)
      if samples.isEmpty {
        report +=
          "  Live magnitude: no samples arrived in 3 s (buffered sensors send only when they move;"
          + " tilt the device and try again).\n"
      } else {
        let count = Double(samples.count)
        let magnitude = samples.map(\.magnitude).reduce(0, +) / count
        let text = DecimalFormatting.fixed(magnitude, decimals: 2)
        if abs(magnitude - 1) > 0.25 {
          report +=
            "  Live magnitude: \(text) g. WARNING: at rest it should be about 1 g; "
            + "\(text) g is the usual sign of a wrong scale (check in_accel_scale and the driver).\n"
        } else {
          report += "  Live magnitude: \(text) g, as expected for gravity at rest.\n"
        }
      }
      report += "Mount matrix: \(value("matrix") ?? "?"), from \(value("matrix-from") ?? "?").\n"
      if value("matrix-source") == "identity" {
        report += "  No mount matrix is set: if the screen turns the wrong way, run 'orientctl calibrate'.\n"
      }
      report += "  hwdb match for this machine: \(value("hwdb-key") ?? "?")\n"
      if let check = value("matrix-check") {
        if check.hasPrefix("wrong") {
          report += "  WARNING: checked against laptop use: \(check).\n"
          if let key = value("matrix-fix-key"), let fix = value("matrix-fix") {
            report +=
              "  If the laptop stood upright, put this in /etc/udev/hwdb.d/61-sensor-local.hwdb:\n\n"
              + "\(key)\n \(fix)\n\n  then: sudo systemd-hwdb update && sudo udevadm trigger\n"
          }
        } else {
          report += "  Checked against laptop use: \(check).\n"
        }
      }
    }
    if let sampling = value("sampling") { report += "Sampling: \(sampling).\n" }
    report += "Orientation: device \(state["device"] ?? "?"), screen \(state["orientation"] ?? "?").\n"
    if let mode = value("tablet-mode") { report += "Mode: \(mode).\n" }
    if let switches = value("switches"), switches != "none" { report += "  Switches: \(switches).\n" }
    if let hinge = value("hinge-sensor"), hinge != "none" { report += "  Hinge sensor: \(hinge).\n" }
    let lock = state["lock"] ?? "off"
    report += lock == "off" ? "Lock: off; the screen follows the device.\n" : "Lock: locked to \(lock).\n"
    report += "Allowed: \((state["allowed"] ?? "").replacingCommas)"
    report += value("allowed-from").map { ", from \($0).\n" } ?? ".\n"
    let hooks = items.filter { $0.key == "hook" }.map(\.value)
    if value("hook-timeout") == nil {
      // orientd shows its hooks and paths only to those who may control it.
      report += "Hooks: not shown; only users who may control orientd see them.\n"
    } else if hooks.isEmpty && value("hooks-dir") == nil {
      report += "Hooks: none in the daemon (desktop rotation runs from 'orientctl hook' in the session).\n"
    } else {
      report += "Hooks: \(hooks.count) command(s)"
      report += value("hooks-dir").map { " and every executable in \($0)" } ?? ""
      report += ", each killed after \(value("hook-timeout") ?? "5 s").\n"
      for hook in hooks { report += "  - \(hook)\n" }
      if let directory = value("hooks-dir"), let problem = value("hooks-dir-problem") {
        report +=
          "  WARNING: hooks-dir \(directory) is \(problem); no hooks run from it until that is fixed.\n"
      }
    }
    if let panel = value("panel") {
      report += "Panel: mounted \(panel)"
      report += value("panel-from").map { ", from \($0)" } ?? ""
      report += panel == "normal" ? ".\n" : "; the hooks' transforms add it.\n"
    }
    report += readingSensors(items)
    if let bus = value("dbus") { report += "D-Bus: \(bus).\n" }
    report += IIOSensorProxyService.summary
    report +=
      "Classifier: threshold \(value("threshold") ?? "?") g, hysteresis \(value("hysteresis") ?? "?") g, "
      + "shake tolerance \(value("shake-tolerance") ?? "?") g, settle \(value("settle") ?? "?"), still \(value("still") ?? "?").\n"
    if let flat = value("flat-grace") {
      report +=
        "Posture: no new screen orientation \(flat) after lying flat, \(value("swing-grace") ?? "?") after a swing, "
        + "\(value("shake-grace") ?? "?") after a shake; overhead lock \(value("overhead-lock") ?? "?").\n"
    }
    _ = write(report)
    return 0
  }
}

extension Session {
  /// The light sensor, the proximity sensor and the compass, as `info` says how each is read,
  /// and the devices found that are not used, with why.
  func readingSensors(_ items: [InfoItem]) -> String {
    func value(_ key: String) -> String? { items.first { $0.key == key }?.value }
    var report = "Other sensors (read only while a D-Bus client claims them or a socket client hears them):\n"
    for (key, name) in [
      ("light-sensor", "Ambient light"), ("proximity-sensor", "Proximity"), ("compass", "Compass"),
    ] {
      report += "  \(name): \(value(key) ?? "unknown (an orientd without them)").\n"
    }
    for skipped in items.filter({ $0.key == "sensor-skipped" }) {
      report += "  Not used: \(skipped.value).\n"
    }
    return report
  }
}

/// iio-sensor-proxy's service on this machine, as doctor tells it: the other daemon that
/// serves `net.hadess.SensorProxy`.
enum IIOSensorProxyService {
  static let binary = "/usr/sbin/iio-sensor-proxy"
  static let dropIn = "/lib/systemd/system/iio-sensor-proxy.service.d/orientd.conf"
  static let masks = [
    "/etc/systemd/system/iio-sensor-proxy.service", "/run/systemd/system/iio-sensor-proxy.service",
  ]

  /// One paragraph, or nothing when iio-sensor-proxy is not installed.
  static var summary: String {
    guard FileSystem.exists(binary) else { return "" }
    // A mask that cannot be resolved is no mask: the probe's answer, not an error.
    if masks.contains(where: { (try? FileSystem.resolvedPath($0)) == "/dev/null" }) {
      return "iio-sensor-proxy: installed and masked. "
        + (FileSystem.exists(dropIn)
          ? "orientd's package keeps it from starting already; 'sudo systemctl unmask iio-sensor-proxy' lets it "
            + "serve again when orientd is removed.\n"
          : "Unmask it ('sudo systemctl unmask iio-sensor-proxy') to have it serve when orientd does not.\n")
    }
    if FileSystem.exists(dropIn) {
      return "iio-sensor-proxy: installed; orientd's package keeps its service from starting "
        + "('systemctl cat iio-sensor-proxy' shows how), and removing orientd gives it back.\n"
    }
    return "iio-sensor-proxy: installed, and nothing keeps it from starting: whichever of the two asks for "
      + "net.hadess.SensorProxy first serves it (orientd waits in the bus's queue behind it).\n"
  }
}

extension String {
  /// `normal,left-up` as `normal, left-up`.
  var replacingCommas: String { split(separator: ",").joined(separator: ", ") }
}
