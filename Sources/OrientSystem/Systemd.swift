import Synchronization

/// The service manager's side of orientd: readiness and watchdog notifications, and
/// sockets passed in by socket activation. Both work without libsystemd.
package enum Systemd {
  /// A service manager that stops reading would otherwise get a warning per watchdog ping.
  private static let notifyWarning = Mutex(RateLimitedWarning())

  /// Sends `state` (e.g. `READY=1`) to `$NOTIFY_SOCKET`, if the service manager set it.
  ///
  /// Never waits; a notification the service manager does not take is logged and dropped.
  @discardableResult
  package static func notify(_ state: String) -> Bool {
    guard let path = Environment.value("NOTIFY_SOCKET"), !path.isEmpty else { return false }
    do {
      try UnixSocket.sendDatagram(state, to: path)
      return true
    } catch {
      notifyWarning.withLock { $0.warn("cannot notify the service manager at \(path): \(error.code)") }
      return false
    }
  }

  /// Half of `$WATCHDOG_USEC`, when the watchdog is on for this process.
  package static var watchdogInterval: Duration? {
    guard let text = Environment.value("WATCHDOG_USEC"), let usec = Int64(text), usec > 0 else { return nil }
    if let owner = Environment.value("WATCHDOG_PID"), owner != ProcessID.current.description { return nil }
    return .microseconds(usec) / 2
  }

  /// The first socket passed by socket activation (`$LISTEN_FDS` for this `$LISTEN_PID`),
  /// made non-blocking; nil when orientd was not socket-activated.
  ///
  /// The variables are removed so hooks do not inherit them.
  package static func activatedListener() throws(SystemError) -> FileDescriptor? {
    defer {
      Environment.remove("LISTEN_PID")
      Environment.remove("LISTEN_FDS")
      Environment.remove("LISTEN_FDNAMES")
    }
    guard Environment.value("LISTEN_PID") == ProcessID.current.description,
      let count = Environment.value("LISTEN_FDS").flatMap({ Int($0) }), count >= 1
    else { return nil }
    // The first passed descriptor is always 3 (SD_LISTEN_FDS_START).
    let listener = FileDescriptor(adopting: 3)
    guard listener.isListeningUnixStream else {
      _ = listener.release()
      throw SystemError(
        "the socket passed by systemd is not a listening Unix stream socket", code: .notASocket)
    }
    if count > 1 { Log.warning("systemd passed \(count) sockets; using the first") }
    try listener.setNonBlocking()
    try listener.setCloseOnExec()
    return listener
  }
}
