/// One published change of the daemon's state, in the order it happened.
public enum StateChange: Equatable, Sendable {
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

  /// The state's name as the protocol spells it: sensor, device, orientation, lock, allowed,
  /// mode or hinge.
  public var key: String {
    switch self {
    case .sensor: return "sensor"
    case .device: return "device"
    case .orientation: return "orientation"
    case .lock: return "lock"
    case .allowed: return "allowed"
    case .mode: return "mode"
    case .hinge: return "hinge"
    }
  }

  /// The value as the text protocol spells it, e.g. `left-up`, `off` or `normal,right-up`.
  public var valueText: String {
    switch self {
    case .sensor(let online): return online ? "online" : "offline"
    case .device(let device): return orientationName(device)
    case .orientation(let screen): return orientationName(screen)
    case .lock(let lock): return lock?.name ?? "off"
    case .allowed(let allowed): return allowed.listText
    case .mode(let mode): return mode.rawValue
    case .hinge(let degrees): return degrees.map(String.init) ?? "undefined"
    }
  }

  /// The text protocol line without its newline, e.g. `orientation left-up`.
  public var line: String { key + " " + valueText }
}

extension StateChange {
  /// Parses a text protocol state line such as `orientation left-up`; nil for anything else.
  public init?(line: some StringProtocol) {
    let parts = line.split(separator: " ", maxSplits: 1)
    guard parts.count == 2 else { return nil }
    let value = parts[1]
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
      guard let allowed = try? AllowedOrientations.parse(value) else { return nil }
      self = .allowed(allowed)
    case "mode":
      guard let mode = TabletMode(rawValue: String(value)) else { return nil }
      self = .mode(mode)
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
}
