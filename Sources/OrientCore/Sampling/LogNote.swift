/// A line that a pure decision wants in the log, at its level; the shell around the decision
/// writes it. Keeping the text in the decision keeps the log's wording under its tests.
package struct LogNote: Equatable, Sendable, CustomStringConvertible {
  /// How much the line matters.
  package enum Level: Equatable, Sendable {
    /// Only with `--verbose`.
    case debug
    case info
    case warning
  }

  package var level: Level
  package var text: String

  /// A line at `level`.
  package init(_ level: Level, _ text: String) {
    self.level = level
    self.text = text
  }

  /// A `--verbose` line.
  static func debug(_ text: String) -> LogNote { LogNote(.debug, text) }
  /// An ordinary line.
  static func info(_ text: String) -> LogNote { LogNote(.info, text) }
  /// A warning.
  static func warning(_ text: String) -> LogNote { LogNote(.warning, text) }

  package var description: String { "\(level): \(text)" }
}
