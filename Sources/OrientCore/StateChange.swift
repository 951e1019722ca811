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

  /// The state's name as the protocol spells it: sensor, device, orientation, lock or allowed.
  public var key: String {
    switch self {
    case .sensor: return "sensor"
    case .device: return "device"
    case .orientation: return "orientation"
    case .lock: return "lock"
    case .allowed: return "allowed"
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
    }
  }

  /// The text protocol line without its newline, e.g. `orientation left-up`.
  public var line: String { key + " " + valueText }
}
