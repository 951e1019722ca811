/// Process exit statuses, following sysexits(3).
package enum ExitCode: Int32, Sendable {
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
