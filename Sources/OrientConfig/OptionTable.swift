import OrientCore

/// Where an option appears in `--help`, in this order.
enum OptionSection: String, CaseIterable, Sendable {
  case actions = "Actions"
  case source = "Sample source (default: the accelerometer found through libiio)"
  case socket = "Socket (served unless --dump runs without --socket)"
  case classifier = "Classifier"
  case hooks = "Hooks (run on every change of the screen orientation or the mode)"
  case tablet = "Tablet mode (convertibles: a tablet-mode switch, or the hinge of two sensors)"
  case dbus = "D-Bus (for GNOME, KDE and other iio-sensor-proxy clients)"
  case other = "Other"
}

/// One option: its name, how `--help` shows it, and, for settings, how its value is applied.
struct OptionSpec: Sendable {
  let name: String
  /// The one-letter form (`-h` for `--help`), if any.
  var short: Character?
  /// The value's placeholder in `--help` (`MS`, `auto|poll|buffer`); nil for a flag.
  let placeholder: String?
  let section: OptionSection
  /// The line in `--help`.
  let summary: String
  /// Sets a setting from its value as typed; nil for the command-line-only options (actions, the
  /// sample source and `--config`), which `CommandLineArguments` handles itself.
  let set: (@Sendable (inout DaemonOptions, String) throws(ValueError) -> Void)?
  /// Where a setting's value is kept and what a reload does with it; nil for the
  /// command-line-only options.
  let field: SettingField?

  /// Flags take no value on the command line, and yes/no in the config file.
  var isFlag: Bool { placeholder == nil }

  /// A setting, accepted on the command line and in the config file, kept in `field`.
  init(
    _ name: String, _ placeholder: String?, _ section: OptionSection, _ summary: String, field: SettingField,
    set: @escaping @Sendable (inout DaemonOptions, String) throws(ValueError) -> Void
  ) {
    self.name = name
    self.placeholder = placeholder
    self.section = section
    self.summary = summary
    self.field = field
    self.set = set
  }

  /// An option of the command line only.
  init(
    commandLine name: String, _ placeholder: String?, _ section: OptionSection, _ summary: String,
    short: Character? = nil
  ) {
    self.name = name
    self.short = short
    self.placeholder = placeholder
    self.section = section
    self.summary = summary
    set = nil
    field = nil
  }
}

/// Every option of `orientd`, the single list that parsing, the config file's keys and
/// `--help` all come from.
///
/// Why this file is over 300 lines: it is the one list of orientd's options, each with its
/// help line, its config key, its parser and its reload behaviour; splitting it would make
/// two lists to keep in step.
enum OptionTable {
  static let all: [OptionSpec] = [
    OptionSpec(
      commandLine: "dump", nil, .actions,
      "print one line per change: '<t> device <o>' or '<t> orientation <o>'"),
    OptionSpec(
      commandLine: "list", nil, .actions,
      "list accelerometers with scale, mount matrix and reading, then exit"),
    OptionSpec(
      commandLine: "check-config", nil, .actions,
      "read the config file and the options as a start would, say what is wrong, then exit"),
    OptionSpec(commandLine: "help", nil, .actions, "show this help and exit", short: "h"),
    OptionSpec(commandLine: "version", nil, .actions, "show the version and exit", short: "V"),
    OptionSpec(
      commandLine: "completion", "bash|zsh|fish", .actions,
      "print the completion script for this shell, then exit (make install installs them)"),
    OptionSpec(
      "uri", "URI", .source, "libiio context URI, e.g. ip:192.168.1.2 (default local:)",
      field: .restart(\.uri)
    ) { options, value throws(ValueError) in
      options.uri = try nonEmpty(value, "a libiio URI such as ip:192.168.1.2")
    },
    OptionSpec(
      "device", "ID|NAME|LABEL", .source, "use this IIO device instead of the automatic choice",
      field: .restart(\.device)
    ) { options, value throws(ValueError) in
      options.device = try nonEmpty(value, "an id, name or label")
    },
    OptionSpec(
      "mode", "auto|poll|buffer", .source,
      "buffered capture, polling, or the buffer once it delivers, polling until then (default auto)",
      field: .restart(\.captureMode)
    ) { options, value throws(ValueError) in
      options.captureMode = try choice(value)
    },
    OptionSpec(
      "interval", "MS", .source, "polling period while the device is handled, in milliseconds (default 200)",
      field: .restart(\.interval)
    ) { options, value throws(ValueError) in
      options.interval = try milliseconds(value, minimum: 1)
    },
    OptionSpec(
      "resting-interval", "MS", .source,
      "polling period once the device has rested 10 s, at least the interval (default 1000)",
      field: .restart(\.restingInterval)
    ) { options, value throws(ValueError) in
      options.restingInterval = try milliseconds(value, minimum: 1)
    },
    OptionSpec(
      "mount-matrix", "M", .source, "override the mount matrix: 'x1, y1, z1; x2, y2, z2; x3, y3, z3'",
      field: .restart(\.mountMatrix)
    ) { options, value throws(ValueError) in
      options.mountMatrix = try MountMatrix.parse(value)
    },
    OptionSpec(
      commandLine: "replay", "FILE", .source, "replay a trace file (as fast as possible with --dump)"),
    OptionSpec(commandLine: "demo", nil, .source, "loop a built-in trace through all six orientations"),
    OptionSpec(
      "record", "FILE", .source, "append every corrected sample to a trace file",
      field: .restart(\.recordPath)
    ) { options, value throws(ValueError) in
      options.recordPath = try nonEmpty(value, "a file name")
    },
    OptionSpec(
      "threshold", "G", .classifier, "component needed to propose an orientation (default 0.6)",
      field: .live(\.settings.threshold)
    ) { options, value throws(ValueError) in
      options.settings.threshold = try gravity(value, above: 0, upTo: 1)
    },
    OptionSpec(
      "hysteresis", "G", .classifier, "the current orientation holds down to threshold - G (default 0.1)",
      field: .live(\.settings.hysteresis)
    ) { options, value throws(ValueError) in
      // Below the threshold too, which DaemonOptions checks once both are known.
      options.settings.hysteresis = try gravity(value, from: 0, below: 1)
    },
    OptionSpec(
      "shake-tolerance", "G", .classifier, "ignore samples whose magnitude is off 1 g by more (default 0.4)",
      field: .live(\.settings.shakeTolerance)
    ) { options, value throws(ValueError) in
      options.settings.shakeTolerance = try gravity(value, from: 0, upTo: 4)
    },
    OptionSpec(
      "settle", "MS", .classifier, "how long a new orientation must hold (default 200)",
      field: .live(\.settings.settle)
    ) { options, value throws(ValueError) in
      options.settings.settle = try milliseconds(value, minimum: 0)
    },
    OptionSpec(
      "still", "MS|off", .classifier,
      "take a new orientation once the device has rested in it, or pointed within 22.5 degrees of it in the screen's plane, this long, if sooner than the settle (default 40)",
      field: .live(\.settings.still)
    ) { options, value throws(ValueError) in
      options.settings.still = value == "off" ? nil : try milliseconds(value, minimum: 0)
    },
    OptionSpec(
      "flat-grace", "MS", .classifier,
      "take no new screen orientation this long after the device stops lying flat; 0 turns it off (default 750)",
      field: .live(\.settings.flatGrace)
    ) { options, value throws(ValueError) in
      options.settings.flatGrace = try milliseconds(value, minimum: 0)
    },
    OptionSpec(
      "swing-grace", "MS", .classifier,
      "take no new screen orientation this long after a swing (the screen tilted 20 degrees up within 300 ms); 0 turns it off (default 300)",
      field: .live(\.settings.swingGrace)
    ) { options, value throws(ValueError) in
      options.settings.swingGrace = try milliseconds(value, minimum: 0)
    },
    OptionSpec(
      "shake-grace", "MS", .classifier,
      "take no new screen orientation this long after a sample the shake tolerance rejected; 0 turns it off (default 500)",
      field: .live(\.settings.shakeGrace)
    ) { options, value throws(ValueError) in
      options.settings.shakeGrace = try milliseconds(value, minimum: 0)
    },
    OptionSpec(
      "overhead-lock", "yes|no", .classifier,
      "hold the screen orientation while the screen faces down 40 degrees or more, until it is back within 15 degrees of upright (default yes)",
      field: .live(\.settings.overheadLock)
    ) { options, value throws(ValueError) in
      options.settings.overheadLock = try boolean(value)
    },
    OptionSpec(
      "allowed", "LIST", .classifier, "screen orientations to take, e.g. normal,left-up (default all)",
      field: .allowed
    ) { options, value throws(ValueError) in
      options.allowed = try AllowedOrientations.parse(value)
    },
    OptionSpec(
      "suggest", "yes|no", .classifier,
      "while the screen is locked, suggest the orientation the device holds, which accept-suggestion "
        + "takes (default yes)", field: .live(\.suggestion.enabled)
    ) { options, value throws(ValueError) in
      options.suggestion.enabled = try boolean(value)
    },
    OptionSpec(
      "suggest-hold", "MS", .classifier,
      "how long the device must hold an orientation to suggest it (default 500)",
      field: .live(\.suggestion.hold)
    ) { options, value throws(ValueError) in
      options.suggestion.hold = try milliseconds(value, minimum: 0)
    },
    OptionSpec(
      "suggest-timeout", "SECONDS", .classifier, "how long a suggestion lasts (default 5)",
      field: .live(\.suggestion.timeout)
    ) { options, value throws(ValueError) in
      guard let time = NumberParsing.duration(seconds: value), time >= .milliseconds(100),
        time <= .seconds(3600)
      else {
        throw ValueError("expected seconds from 0.1 to 3600, such as 5 or 2.5, got '\(value)'")
      }
      options.suggestion.timeout = time
    },
    OptionSpec(
      "socket", "PATH", .socket,
      "the Unix socket clients connect to (default /run/orientd/orientd.sock; for users other than "
        + "root, $XDG_RUNTIME_DIR/orientd/orientd.sock)",
      field: .restart(\.socketPath)
    ) { options, value throws(ValueError) in
      options.socketPath = try nonEmpty(value, "a path")
    },
    OptionSpec(
      "socket-mode", "OCTAL", .socket, "the socket file's permissions (default 0666)",
      field: .restart(\.socketMode)
    ) { options, value throws(ValueError) in
      let digits = value.hasPrefix("0o") ? String(value.dropFirst(2)) : value
      guard digits.utf8.count <= 4, let mode = UInt32(digits, radix: 8), mode <= 0o7777 else {
        throw ValueError("expected an octal mode such as 0660, got '\(value)'")
      }
      options.socketMode = mode
    },
    OptionSpec(
      "control-group", "GROUP", .socket,
      "GROUP may also lock, unlock, rotate, allow and set the mode (as root, orientd's user and the seat's user may)",
      field: .restart(\.controlGroup)
    ) { options, value throws(ValueError) in
      options.controlGroup = try nonEmpty(value, "a group name")
    },
    OptionSpec(
      "max-clients", "N", .socket, "the most clients served at once (default 256)",
      field: .restart(\.maxClients)
    ) { options, value throws(ValueError) in
      options.maxClients = try clientCount(value)
    },
    OptionSpec(
      "max-clients-per-user", "N", .socket,
      "the most clients one user may hold; root and orientd's own are exempt (default max-clients / 4)",
      field: .restart(\.maxClientsPerUser)
    ) { options, value throws(ValueError) in
      options.maxClientsPerUser = try clientCount(value)
    },
    OptionSpec(
      "idle-timeout", "SECONDS", .socket,
      "drop a client that sent nothing and read nothing this long (default 30)",
      field: .restart(\.idleTimeout)
    ) { options, value throws(ValueError) in
      guard let time = NumberParsing.duration(seconds: value), time >= .milliseconds(100),
        time <= .seconds(86400)
      else {
        throw ValueError("expected seconds from 0.1 to 86400, such as 30, got '\(value)'")
      }
      options.idleTimeout = time
    },
    OptionSpec(
      "state", "PATH", .socket,
      "where the lock, allowed set and mode persist (default /var/lib/orientd/state; for users other "
        + "than root, $XDG_RUNTIME_DIR/orientd/state)",
      field: .restart(\.statePath)
    ) { options, value throws(ValueError) in
      options.statePath = try nonEmpty(value, "a path")
    },
    OptionSpec("hook", "CMD", .hooks, "run CMD with /bin/sh (repeatable)", field: .live(\.hooks)) {
      options, value throws(ValueError) in
      options.hooks.append(try nonEmpty(value, "a command"))
    },
    OptionSpec(
      "hooks-dir", "DIR", .hooks, "run every executable in DIR, in name order", field: .live(\.hooksDirectory)
    ) { options, value throws(ValueError) in
      options.hooksDirectory = try nonEmpty(value, "a directory")
    },
    OptionSpec(
      "hook-timeout", "SECONDS", .hooks, "kill a hook that runs longer (default 5)",
      field: .live(\.hookTimeout)
    ) { options, value throws(ValueError) in
      guard let time = NumberParsing.duration(seconds: value), time >= .milliseconds(1),
        time <= .seconds(3600)
      else {
        throw ValueError("expected seconds from 0.001 to 3600, such as 5 or 0.5, got '\(value)'")
      }
      options.hookTimeout = time
    },
    OptionSpec(
      "panel-orientation", "auto|normal|left-up|bottom-up|right-up", .hooks,
      "how the panel is mounted in the casing, which the hooks' transforms add; auto takes the kernel's "
        + "panel orientation of the built-in panel (default auto)",
      field: .live(\.panelOrientation)
    ) { options, value throws(ValueError) in
      guard let setting = PanelOrientationSetting(name: value) else {
        throw ValueError("expected auto, normal, left-up, bottom-up or right-up, got '\(value)'")
      }
      options.panelOrientation = setting
    },
    OptionSpec(
      "rotate", "always|tablet|auto", .tablet,
      "rotate always, or only in tablet mode (laptop mode holds normal); auto is tablet where a switch, "
        + "a hinge or the mode command gives the mode (default auto)", field: .restart(\.rotate)
    ) { options, value throws(ValueError) in
      options.rotate = try choice(value)
    },
    OptionSpec(
      "tablet-switch", "yes|no", .tablet,
      "show a mode from the hinge as a virtual SW_TABLET_MODE switch (uinput) for libinput and the "
        + "desktop; never beside a hardware switch (default yes)", field: .restart(\.virtualTabletSwitch)
    ) { options, value throws(ValueError) in
      options.virtualTabletSwitch = try boolean(value)
    },
    OptionSpec(
      "dbus", "system|session|off", .dbus,
      "serve net.hadess.SensorProxy (iio-sensor-proxy's interface) on this bus (default off)",
      field: .restart(\.bus)
    ) { options, value throws(ValueError) in
      options.bus = try choice(value)
    },
    OptionSpec(
      "dbus-orientation", "device|screen", .dbus,
      "AccelerometerOrientation follows the device, or the screen after lock and allowed set (default device)",
      field: .restart(\.busOrientation)
    ) { options, value throws(ValueError) in
      options.busOrientation = try choice(value)
    },
    OptionSpec(
      commandLine: "config", "PATH", .other,
      "the config file, which must exist (instead of the default one)"),
    OptionSpec(
      commandLine: "default-config", "PATH", .other,
      "the config file read if it exists (default /etc/orientd/orientd.conf)"),
    OptionSpec(
      "verbose", nil, .other, "log every sample and what it proposes or why it is rejected",
      field: .live(\.verbose)
    ) { options, value throws(ValueError) in
      options.verbose = try boolean(value)
    },
  ]

  /// The settings: what both the command line and the config file accept.
  static let settings = all.filter { $0.set != nil }

  /// Every name the command line accepts, for suggestions.
  static let commandLineNames = all.map(\.name)

  /// Every key the config file accepts.
  static var configKeys: [String] { settings.map(\.name) }

  /// A number of clients, 1 to 100000.
  private static func clientCount(_ value: String) throws(ValueError) -> Int {
    guard let count = NumberParsing.unsignedInteger(value, maximum: 100_000), count >= 1 else {
      throw ValueError("expected a whole number from 1 to 100000, got '\(value)'")
    }
    return count
  }

  private static func nonEmpty(_ value: String, _ what: String) throws(ValueError) -> String {
    guard !value.isEmpty else { throw ValueError("needs \(what)") }
    return value
  }

  /// Whole milliseconds from `minimum` to an hour.
  private static func milliseconds(_ text: String, minimum: Int) throws(ValueError) -> Duration {
    guard let value = NumberParsing.unsignedInteger(text, maximum: 3_600_000), value >= minimum else {
      throw ValueError("expected whole milliseconds from \(minimum) to 3600000, got '\(text)'")
    }
    return .milliseconds(value)
  }

  /// A bound as people write it: 1, not 1.0.
  private static func number(_ value: Double) -> String {
    value == value.rounded() ? String(Int(value)) : "\(value)"
  }

  /// A number of g above `low` and at most `high`.
  private static func gravity(_ text: String, above low: Double, upTo high: Double) throws(ValueError)
    -> Double
  {
    guard let value = NumberParsing.finiteDouble(text), value > low, value <= high else {
      throw ValueError(
        "expected a number of g above \(number(low)) and at most \(number(high)), got '\(text)'")
    }
    return value
  }

  /// A number of g from `low` to `high`.
  private static func gravity(_ text: String, from low: Double, upTo high: Double) throws(ValueError)
    -> Double
  {
    guard let value = NumberParsing.finiteDouble(text), value >= low, value <= high else {
      throw ValueError("expected a number of g from \(number(low)) to \(number(high)), got '\(text)'")
    }
    return value
  }

  /// A number of g from `low` up to but not including `high`.
  private static func gravity(_ text: String, from low: Double, below high: Double) throws(ValueError)
    -> Double
  {
    guard let value = NumberParsing.finiteDouble(text), value >= low, value < high else {
      throw ValueError("expected a number of g from \(number(low)) and below \(number(high)), got '\(text)'")
    }
    return value
  }

  /// One of an enumeration's values, by name; the error lists them all ("expected auto, poll
  /// or buffer").
  private static func choice<Choice: RawRepresentable & CaseIterable>(_ text: String) throws(ValueError)
    -> Choice
  where Choice.RawValue == String {
    if let value = Choice(rawValue: text) { return value }
    let names = Choice.allCases.map(\.rawValue)
    let list =
      names.count > 1 ? names.dropLast().joined(separator: ", ") + " or " + names.last! : names.joined()
    throw ValueError("expected \(list), got '\(text)'")
  }

  private static func boolean(_ text: String) throws(ValueError) -> Bool {
    switch text.lowercased() {
    case "yes", "true", "on", "1": return true
    case "no", "false", "off", "0": return false
    default: throw ValueError("expected yes or no, got '\(text)'")
    }
  }
}
