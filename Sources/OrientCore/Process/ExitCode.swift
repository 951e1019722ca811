/// Process exit statuses, following sysexits(3).
public enum ExitCode: Int32, Sendable {
  case success = 0
  /// The command line was wrong.
  case usage = 64
  /// Input data (a trace, a state file) was malformed.
  case dataError = 65
  /// An input file could not be opened.
  case noInput = 66
  /// A needed service or device is not available.
  case unavailable = 69
  /// An internal error.
  case software = 70
  /// An operating-system call failed.
  case osError = 71
  /// An output file could not be created.
  case cannotCreate = 73
  /// Reading or writing failed.
  case ioError = 74
  /// A temporary failure: trying again may work (an interrupted or timed-out calibration).
  case temporaryFailure = 75
  /// Permission denied.
  case noPermission = 77
  /// The configuration was wrong.
  case config = 78
}

/// A failure that ends the program, or one step of it, with a message and a sysexits status.
public struct Failure: Error, Equatable, Sendable, CustomStringConvertible {
  /// What went wrong, naming where it came from (an option, `file:line`).
  public var message: String
  public var exitCode: ExitCode

  /// Creates a failure with its message and exit status.
  public init(_ message: String, exitCode: ExitCode) {
    self.message = message
    self.exitCode = exitCode
  }

  /// A command-line mistake (exit 64); the message names the option.
  public static func usage(_ message: String) -> Failure { Failure(message, exitCode: .usage) }

  /// A config-file mistake (exit 78); the message starts with `file:line`.
  public static func config(_ message: String) -> Failure { Failure(message, exitCode: .config) }

  public var description: String { message }
}
