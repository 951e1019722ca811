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
  /// The configuration was wrong.
  case config = 78
}

/// A failure that ends the program with a message and a sysexits status.
public struct Failure: Error, Sendable, CustomStringConvertible {
  public var message: String
  public var exitCode: ExitCode

  /// Creates a failure with its message and exit status.
  public init(_ message: String, exitCode: ExitCode) {
    self.message = message
    self.exitCode = exitCode
  }

  public var description: String { message }
}
