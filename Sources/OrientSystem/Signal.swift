import Glibc

/// A signal number, with names for the ones orientd sends and handles.
package struct Signal: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
  package let rawValue: Int32
  package init(rawValue: Int32) { self.rawValue = rawValue }

  package static let hangUp = Signal(rawValue: SIGHUP)
  package static let interrupt = Signal(rawValue: SIGINT)
  package static let terminate = Signal(rawValue: SIGTERM)
  package static let kill = Signal(rawValue: SIGKILL)

  /// `SIGTERM` style, or the number for the ones without a name here.
  package var description: String {
    switch self {
    case .hangUp: return "SIGHUP"
    case .interrupt: return "SIGINT"
    case .terminate: return "SIGTERM"
    case .kill: return "SIGKILL"
    default: return "signal \(rawValue)"
    }
  }
}
