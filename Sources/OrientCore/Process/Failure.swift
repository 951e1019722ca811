/// A failure that ends the program, or one step of it, with a message and a sysexits status.
package struct Failure: Error, Equatable, Sendable, CustomStringConvertible {
  /// What went wrong, naming where it came from (an option, `file:line`).
  package var message: String
  /// The sysexits status the program ends with.
  package var exitCode: ExitCode

  /// Creates a failure with its message and exit status.
  package init(_ message: String, exitCode: ExitCode) {
    self.message = message
    self.exitCode = exitCode
  }

  /// A command-line mistake (exit 64); the message names the option.
  package static func usage(_ message: String) -> Failure { Failure(message, exitCode: .usage) }

  /// A config-file mistake (exit 78); the message starts with `file:line`.
  package static func config(_ message: String) -> Failure { Failure(message, exitCode: .config) }

  package var description: String { message }
}
