/// One published change of the daemon's state, in the order it happened.
package enum StateChange: Equatable, Sendable {
  /// The sensor went online (true) or offline (false).
  case sensor(online: Bool)
  /// The physical orientation changed.
  case device(DeviceOrientation?)
  /// The screen orientation changed.
  case orientation(ScreenOrientation?)
  /// The screen was locked to an orientation, or unlocked (nil).
  case lock(ScreenOrientation?)
  /// The allowed screen orientations changed.
  case allowed(AllowedOrientations)
  /// The convertible's mode changed: tablet, laptop or unknown.
  case mode(TabletMode)
  /// The hinge angle moved (whole degrees, 0 closed to 360 folded back), or is no longer known.
  case hinge(Int?)
  /// The ambient light level changed, its sensor came or went, or it is no longer read.
  case light(Reading<LightLevel>)
  /// Something came near the proximity sensor (true) or went away (false), or the sensor
  /// came, went, or is no longer read.
  case proximity(Reading<Bool>)
  /// The compass heading changed (degrees from magnetic north, clockwise, 0 to below 360), or
  /// the compass came, went, or is no longer read.
  case heading(Reading<Double>)
  /// The locked screen could turn to this orientation, which the device holds (`accept-suggestion`
  /// takes it), or no longer (nil).
  case suggestion(ScreenOrientation?)

  /// What the change is about.
  package var key: StateKey {
    switch self {
    case .sensor: .sensor
    case .device: .device
    case .orientation: .orientation
    case .lock: .lock
    case .allowed: .allowed
    case .mode: .mode
    case .hinge: .hinge
    case .light: .light
    case .proximity: .proximity
    case .heading: .heading
    case .suggestion: .suggestion
    }
  }

  /// The value as the text protocol spells it, e.g. `left-up`, `off` or `normal,right-up`.
  package var valueText: String {
    switch self {
    case .sensor(let online): return online ? "online" : "offline"
    case .device(let device): return orientationName(device)
    case .orientation(let screen): return orientationName(screen)
    case .lock(let lock): return lock?.name ?? "off"
    case .allowed(let allowed): return allowed.listText
    case .mode(let mode): return mode.rawValue
    case .hinge(let degrees): return degrees.map(String.init) ?? "undefined"
    case .light(let reading): return Self.text(reading) { $0.text }
    case .proximity(let reading): return Self.text(reading) { $0 ? "near" : "far" }
    case .heading(let reading): return Self.text(reading) { DecimalFormatting.trimmed($0, decimals: 1) }
    case .suggestion(let target): return target?.name ?? "none"
    }
  }

  /// A reading as the text protocol spells it: `none` without a sensor, `undefined` without a
  /// value.
  private static func text<Value>(_ reading: Reading<Value>, _ value: (Value) -> String) -> String {
    switch reading {
    case .absent: "none"
    case .unknown: "undefined"
    case .value(let known): value(known)
    }
  }

  /// The text protocol line without its newline, e.g. `orientation left-up`.
  package var line: String { key.rawValue + " " + valueText }
}

extension StateChange {
  /// Parses a text protocol state line such as `orientation left-up`; nil for anything else.
  package init?(line: some StringProtocol) {
    let parts = line.split(separator: " ", maxSplits: 1)
    guard parts.count == 2, let key = StateKey(rawValue: String(parts[0])) else { return nil }
    let value = parts[1]
    if let reading = Self.reading(key, Substring(value)) {
      self = reading
      return
    }
    switch parts[0] {
    case "sensor":
      guard value == "online" || value == "offline" else { return nil }
      self = .sensor(online: value == "online")
    case "device":
      if value == "undefined" {
        self = .device(nil)
      } else if let device = DeviceOrientation(name: value) {
        self = .device(device)
      } else {
        return nil
      }
    case "orientation":
      if value == "undefined" {
        self = .orientation(nil)
      } else if let screen = ScreenOrientation(name: value) {
        self = .orientation(screen)
      } else {
        return nil
      }
    case "lock":
      if value == "off" {
        self = .lock(nil)
      } else if let screen = ScreenOrientation(name: value) {
        self = .lock(screen)
      } else {
        return nil
      }
    case "allowed":
      // Why it does not parse does not matter here: nil is this initializer's "not a change".
      guard let allowed = try? AllowedOrientations.parse(value) else { return nil }
      self = .allowed(allowed)
    case "mode":
      guard let mode = TabletMode(rawValue: String(value)) else { return nil }
      self = .mode(mode)
    case "suggestion":
      if value == "none" {
        self = .suggestion(nil)
      } else if let screen = ScreenOrientation(name: value) {
        self = .suggestion(screen)
      } else {
        return nil
      }
    case "hinge":
      if value == "undefined" {
        self = .hinge(nil)
      } else if let degrees = Int(value), (0...360).contains(degrees) {
        self = .hinge(degrees)
      } else {
        return nil
      }
    default:
      return nil
    }
  }

  /// A reading's line (`light 350.5 lux`, `proximity near`, `heading none`), or nil.
  private static func reading(_ key: StateKey, _ value: Substring) -> StateChange? {
    func reading<Value>(_ parse: (Substring) -> Value?) -> Reading<Value>? {
      switch value {
      case "none": return .absent
      case "undefined": return .unknown
      default: return parse(value).map { .value($0) }
      }
    }
    switch key {
    case .light:
      return reading { text in
        let words = text.split(separator: " ")
        guard words.count == 2, let level = NumberParsing.finiteDouble(words[0]),
          let unit = LightUnit(rawValue: String(words[1]))
        else { return nil }
        return LightLevel(level, unit: unit)
      }.map { .light($0) }
    case .proximity:
      return reading { $0 == "near" ? true : $0 == "far" ? false : nil }.map { .proximity($0) }
    case .heading:
      return reading { NumberParsing.finiteDouble($0).flatMap { (0..<360).contains($0) ? $0 : nil } }
        .map { .heading($0) }
    default:
      return nil
    }
  }
}
