/// One setting, given as `--name VALUE` on the command line or `name = VALUE` in the config file.
struct OptionSpec: Sendable {
  let name: String
  /// Flags take no value on the command line, and yes/no in the config file.
  let isFlag: Bool
  let apply: @Sendable (inout DaemonOptions, String) throws(ValueError) -> Void
}

/// The settings both the command line and the config file accept, and how each is parsed.
enum OptionTable {
  static let settings: [OptionSpec] = [
    OptionSpec(name: "uri", isFlag: false) { options, value throws(ValueError) in
      options.uri = try nonEmpty(value, "a libiio URI such as ip:192.168.1.2")
    },
    OptionSpec(name: "device", isFlag: false) { options, value throws(ValueError) in
      options.device = try nonEmpty(value, "an id, name or label")
    },
    OptionSpec(name: "mode", isFlag: false) { options, value throws(ValueError) in
      guard let mode = CaptureMode(rawValue: value) else {
        throw ValueError("expected auto, poll or buffer, got '\(value)'")
      }
      options.captureMode = mode
    },
    OptionSpec(name: "interval", isFlag: false) { options, value throws(ValueError) in
      options.intervalMilliseconds = try milliseconds(value, minimum: 1)
    },
    OptionSpec(name: "mount-matrix", isFlag: false) { options, value throws(ValueError) in
      options.mountMatrix = try MountMatrix.parse(value)
    },
    OptionSpec(name: "record", isFlag: false) { options, value throws(ValueError) in
      options.recordPath = try nonEmpty(value, "a file name")
    },
    OptionSpec(name: "threshold", isFlag: false) { options, value throws(ValueError) in
      options.settings.threshold = try gravity(value)
    },
    OptionSpec(name: "hysteresis", isFlag: false) { options, value throws(ValueError) in
      options.settings.hysteresis = try gravity(value)
    },
    OptionSpec(name: "shake-tolerance", isFlag: false) { options, value throws(ValueError) in
      options.settings.shakeTolerance = try gravity(value)
    },
    OptionSpec(name: "settle", isFlag: false) { options, value throws(ValueError) in
      options.settings.settleMicroseconds = Int64(try milliseconds(value, minimum: 0)) * 1000
    },
    OptionSpec(name: "allowed", isFlag: false) { options, value throws(ValueError) in
      options.allowed = try AllowedOrientations.parse(value)
    },
    OptionSpec(name: "socket", isFlag: false) { options, value throws(ValueError) in
      options.socketPath = try nonEmpty(value, "a path")
    },
    OptionSpec(name: "socket-mode", isFlag: false) { options, value throws(ValueError) in
      let digits = value.hasPrefix("0o") ? String(value.dropFirst(2)) : value
      guard digits.utf8.count <= 4, let mode = UInt32(digits, radix: 8), mode <= 0o7777 else {
        throw ValueError("expected an octal mode such as 0660, got '\(value)'")
      }
      options.socketMode = mode
    },
    OptionSpec(name: "control-group", isFlag: false) { options, value throws(ValueError) in
      options.controlGroup = try nonEmpty(value, "a group name")
    },
    OptionSpec(name: "max-clients", isFlag: false) { options, value throws(ValueError) in
      guard let count = NumberParsing.unsignedInteger(value, maximum: 100_000), count >= 1 else {
        throw ValueError("expected a whole number from 1 to 100000, got '\(value)'")
      }
      options.maxClients = count
    },
    OptionSpec(name: "state", isFlag: false) { options, value throws(ValueError) in
      options.statePath = try nonEmpty(value, "a path")
    },
    OptionSpec(name: "hook", isFlag: false) { options, value throws(ValueError) in
      options.hooks.append(try nonEmpty(value, "a command"))
    },
    OptionSpec(name: "hooks-dir", isFlag: false) { options, value throws(ValueError) in
      options.hooksDirectory = try nonEmpty(value, "a directory")
    },
    OptionSpec(name: "hook-timeout", isFlag: false) { options, value throws(ValueError) in
      guard let time = NumberParsing.seconds(value), time.microseconds >= 1000,
        time.microseconds <= 3_600_000_000
      else {
        throw ValueError("expected seconds from 0.001 to 3600, such as 5 or 0.5, got '\(value)'")
      }
      options.hookTimeoutMilliseconds = Int(time.microseconds / 1000)
    },
    OptionSpec(name: "verbose", isFlag: true) { options, value throws(ValueError) in
      options.verbose = try boolean(value)
    },
  ]

  /// Every name the command line accepts, for suggestions.
  static let commandLineNames =
    settings.map(\.name) + ["help", "version", "list", "dump", "demo", "replay", "config"]

  /// Every key the config file accepts.
  static var configKeys: [String] { settings.map(\.name) }

  /// The candidate closest to `word` by edit distance, if it is close enough to be a likely typo.
  static func closest(to word: String, among candidates: [String]) -> String? {
    let scored = candidates.map { ($0, editDistance(word, $0)) }.min { $0.1 < $1.1 }
    if let (best, distance) = scored, distance <= max(2, best.count / 3) { return best }
    // `settle-time` for `settle`: a valid key with something added or cut off.
    guard word.count >= 3 else { return nil }
    return candidates.filter { word.hasPrefix($0) || $0.hasPrefix(word) }.max { $0.count < $1.count }
  }

  /// Levenshtein distance between two strings.
  static func editDistance(_ a: String, _ b: String) -> Int {
    let a = Array(a.utf8)
    let b = Array(b.utf8)
    guard !a.isEmpty else { return b.count }
    guard !b.isEmpty else { return a.count }
    var previous = Array(0...b.count)
    for i in 1...a.count {
      var current = [i] + Array(repeating: 0, count: b.count)
      for j in 1...b.count {
        current[j] = min(
          previous[j] + 1, current[j - 1] + 1, previous[j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1))
      }
      previous = current
    }
    return previous[b.count]
  }

  private static func nonEmpty(_ value: String, _ what: String) throws(ValueError) -> String {
    guard !value.isEmpty else { throw ValueError("needs \(what)") }
    return value
  }

  private static func milliseconds(_ text: String, minimum: Int) throws(ValueError) -> Int {
    guard let value = NumberParsing.unsignedInteger(text, maximum: 3_600_000), value >= minimum else {
      throw ValueError("expected whole milliseconds from \(minimum) to 3600000, got '\(text)'")
    }
    return value
  }

  private static func gravity(_ text: String) throws(ValueError) -> Double {
    guard let value = NumberParsing.finiteDouble(text), value >= 0 else {
      throw ValueError("expected a non-negative number in g, got '\(text)'")
    }
    return value
  }

  private static func boolean(_ text: String) throws(ValueError) -> Bool {
    switch text.lowercased() {
    case "yes", "true", "on", "1": return true
    case "no", "false", "off", "0": return false
    default: throw ValueError("expected yes or no, got '\(text)'")
    }
  }
}
