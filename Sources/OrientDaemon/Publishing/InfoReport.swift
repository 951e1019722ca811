import OrientConfig
import OrientCore
import OrientSystem

/// What `info` reports: the sensor, then the settings that shape what clients see; for
/// clients that may control (`full`), also the hooks and the files orientd uses.
///
/// Each key has one meaning (only `hook` repeats, once per hook). `mode` and `mode-reason`
/// are the capture's old names, kept beside `capture` and `capture-reason` for clients of
/// earlier versions; the tablet mode is `tablet-mode`.
struct InfoReport {
  var options: DaemonOptions
  /// The sensor attached and how it is read; nil while none is.
  var sensor: SensorDescription?
  /// Where the allowed set came from, for `full` and for other clients (without paths).
  var allowedFrom: (full: String, brief: String)
  var dbus: String
  var mode: String
  var switches: String
  var sampling: SamplingDemand
  /// The panel's mount the hooks' transforms add, and where it came from.
  var panel: PanelChoice
  /// What is wrong with `--hooks-dir`, as found at start or the last reload.
  var hooksDirectoryProblem: String?
  /// The config file read, if any.
  var configPath: String?
  /// Why no sensor is attached, as the last look for one found.
  var absence: String?
  /// What the last look for reading sensors found, and how each one read is read.
  var inventory: (findings: [SensorFinding], reading: [SensorKind: String]) = ([], [:])
  /// The reading sensors read now.
  var readingsRead: Set<SensorKind> = []

  /// The lines of `info`, without the hooks and paths unless `full`.
  func items(full: Bool) -> [InfoItem] {
    var items: [InfoItem] = [InfoItem("version", orientdVersion)]
    switch options.source {
    case .iio:
      if let sensor {
        items += sensor.items
      } else {
        items.append(InfoItem("sensor", "none attached"))
        if let absence { items.append(InfoItem("sensor-problem", absence)) }
      }
    case .demo:
      items.append(InfoItem("sensor", "the built-in demo"))
    case .replay(let path):
      items.append(InfoItem("sensor", full ? "replay of \(path)" : "a replayed trace"))
    }
    let settings = options.settings
    items += [
      InfoItem("threshold", String(settings.threshold)), InfoItem("hysteresis", String(settings.hysteresis)),
      InfoItem("shake-tolerance", String(settings.shakeTolerance)),
      InfoItem("settle", "\(settings.settle.wholeMilliseconds) ms"),
      InfoItem("still", settings.still.map { "\($0.wholeMilliseconds) ms" } ?? "off"),
      InfoItem("flat-grace", "\(settings.flatGrace.wholeMilliseconds) ms"),
      InfoItem("swing-grace", "\(settings.swingGrace.wholeMilliseconds) ms"),
      InfoItem("shake-grace", "\(settings.shakeGrace.wholeMilliseconds) ms"),
      InfoItem("overhead-lock", settings.overheadLock ? "yes" : "no"),
      InfoItem("allowed-from", full ? allowedFrom.full : allowedFrom.brief),
      InfoItem("dbus", dbus),
      InfoItem("tablet-mode", mode),
      InfoItem("switches", switches),
      InfoItem("sampling", sampling == .idle ? "stopped (nothing needs the sensor)" : "on"),
      // `orientctl hook` reads `panel` for its hooks' transforms.
      InfoItem("panel", panel.orientation.name),
      InfoItem("panel-from", panel.source),
    ]
    items += readingItems
    guard full else { return items }
    items += options.hooks.map { InfoItem("hook", $0) }
    if let directory = options.hooksDirectory {
      items.append(InfoItem("hooks-dir", directory))
      if let problem = hooksDirectoryProblem { items.append(InfoItem("hooks-dir-problem", problem)) }
    }
    items.append(InfoItem("hook-timeout", "\(options.hookTimeout.inSeconds) s"))
    if let configPath {
      // A default file that is missing is fine, but the user reading this should know.
      let found = FileSystem.exists(configPath)
      items.append(InfoItem("config", found ? configPath : "\(configPath) (absent: the defaults apply)"))
    }
    items.append(InfoItem("state-file", options.persistsState ? options.statePath : "none"))
    return items
  }

  /// `light-sensor`, `proximity-sensor`, `compass` and `hinge-sensor`: the device read and
  /// how, whether it is read now, or `none`; then a `sensor-skipped` line for each device
  /// found that cannot be read, and why.
  private var readingItems: [InfoItem] {
    var items: [InfoItem] = []
    for kind in SensorKind.valueKinds {
      let key = kind == .compass ? "compass" : "\(kind.rawValue)-sensor"
      guard let finding = inventory.findings.first(where: { $0.kind == kind && $0.chosen }),
        let how = inventory.reading[kind]
      else {
        items.append(InfoItem(key, "none"))
        continue
      }
      let state = readingsRead.contains(kind) ? "read now" : "resting (nothing needs it)"
      items.append(InfoItem(key, "\(finding.device.label): \(how); \(state)"))
    }
    for finding in inventory.findings where finding.problem != nil {
      items.append(
        InfoItem(
          "sensor-skipped", "\(finding.device.label) as the \(finding.kind.noun): \(finding.problem ?? "")"))
    }
    return items
  }
}
