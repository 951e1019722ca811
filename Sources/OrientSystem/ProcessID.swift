import CLinux
import Glibc

/// How a child process ended.
package enum ExitStatus: Equatable, Sendable {
  /// It called exit with this code.
  case exited(Int32)
  /// A signal killed it.
  case signalled(Signal)

  init(waitStatus status: Int32) {
    let signal = status & 0x7f
    self = signal == 0 ? .exited((status >> 8) & 0xff) : .signalled(Signal(rawValue: signal))
  }
}

/// The id of one process: never 0 or negative, which kill(2) would read as a process group
/// or every process the caller may signal.
package struct ProcessID: Hashable, Sendable, CustomStringConvertible {
  package let rawValue: pid_t

  /// Wraps `rawValue`; nil unless it is positive.
  package init?(_ rawValue: pid_t) {
    guard rawValue > 0 else { return nil }
    self.rawValue = rawValue
  }

  /// This process.
  package static var current: ProcessID { ProcessID(getpid())! }

  package var description: String { String(rawValue) }

  /// Sends `signal` to the process.
  package func send(_ signal: Signal) throws(SystemError) {
    _ = try systemCall("kill \(rawValue)") { kill(rawValue, signal.rawValue) }
  }

  /// Sends `signal` to the process group this process leads (see `Spawn.newProcessGroup`).
  package func sendToGroup(_ signal: Signal) throws(SystemError) {
    _ = try systemCall("kill -\(rawValue)") { kill(-rawValue, signal.rawValue) }
  }

  /// A descriptor that becomes readable when the process exits (pidfd_open).
  package func exitDescriptor() throws(SystemError) -> FileDescriptor {
    FileDescriptor(adopting: try systemCall("pidfd_open \(rawValue)") { clinux_pidfd_open(rawValue) })
  }

  /// Reaps the child if it has exited; nil while it runs.
  package func reap() throws(SystemError) -> ExitStatus? {
    var status: Int32 = 0
    let reaped = try systemCall("waitpid \(rawValue)") { waitpid(rawValue, &status, WNOHANG) }
    return reaped == rawValue ? ExitStatus(waitStatus: status) : nil
  }

  /// Waits for the child to exit and reaps it.
  package func wait() throws(SystemError) -> ExitStatus {
    var status: Int32 = 0
    _ = try systemCall("waitpid \(rawValue)") { waitpid(rawValue, &status, 0) }
    return ExitStatus(waitStatus: status)
  }
}
