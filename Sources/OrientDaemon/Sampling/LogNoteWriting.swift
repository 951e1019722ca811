import OrientCore
import OrientSystem

extension Log {
  /// Writes a line that a pure decision wants logged, at its level.
  static func write(_ note: LogNote) {
    switch note.level {
    case .debug: Log.debug(note.text)
    case .info: Log.info(note.text)
    case .warning: Log.warning(note.text)
    }
  }
}
