import Glibc

/// A signal number, with names for the ones orientd sends and handles.
public struct Signal: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
  public let rawValue: Int32
  public init(rawValue: Int32) { self.rawValue = rawValue }

  public static let hangUp = Signal(rawValue: SIGHUP)
  public static let interrupt = Signal(rawValue: SIGINT)
  public static let terminate = Signal(rawValue: SIGTERM)
  public static let kill = Signal(rawValue: SIGKILL)

  /// `SIGTERM` style, or the number for the ones without a name here.
  public var description: String {
    switch self {
    case .hangUp: return "SIGHUP"
    case .interrupt: return "SIGINT"
    case .terminate: return "SIGTERM"
    case .kill: return "SIGKILL"
    default: return "signal \(rawValue)"
    }
  }
}
