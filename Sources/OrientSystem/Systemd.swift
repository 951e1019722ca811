import CLinux
import Glibc

/// The service manager's side of orientd: readiness and watchdog notifications, and
/// sockets passed in by socket activation. Both work without libsystemd.
public enum Systemd {
  /// Sends `state` (e.g. `READY=1`) to `$NOTIFY_SOCKET`, if the service manager set it.
  @discardableResult
  public static func notify(_ state: String) -> Bool {
    guard let path = getenv("NOTIFY_SOCKET").map({ String(cString: $0) }), !path.isEmpty else { return false }
    if clinux_send_datagram(path, state) != 0 {
      Log.warning("cannot notify the service manager at \(path): \(errorText(errno))")
      return false
    }
    return true
  }

  /// Half of `$WATCHDOG_USEC`, when the watchdog is on for this process.
  public static var watchdogInterval: UInt64? {
    guard let text = getenv("WATCHDOG_USEC").map({ String(cString: $0) }), let usec = UInt64(text), usec > 0
    else { return nil }
    if let owner = getenv("WATCHDOG_PID").map({ String(cString: $0) }), owner != String(getpid()) {
      return nil
    }
    return usec * 1000 / 2
  }

  /// The first socket passed by socket activation (`$LISTEN_FDS` for this `$LISTEN_PID`),
  /// made non-blocking; nil when orientd was not socket-activated.
  ///
  /// The variables are removed so hooks do not inherit them.
  public static func activatedListener() throws(SystemError) -> Int32? {
    defer {
      unsetenv("LISTEN_PID")
      unsetenv("LISTEN_FDS")
      unsetenv("LISTEN_FDNAMES")
    }
    guard let pid = getenv("LISTEN_PID").map({ String(cString: $0) }), pid == String(getpid()),
      let countText = getenv("LISTEN_FDS").map({ String(cString: $0) }), let count = Int(countText),
      count >= 1
    else { return nil }
    let descriptor: Int32 = 3
    guard clinux_is_listening_unix_stream(descriptor) != 0 else {
      throw SystemError("the socket passed by systemd is not a listening Unix stream socket", code: ENOTSOCK)
    }
    if count > 1 { Log.warning("systemd passed \(count) sockets; using the first") }
    guard clinux_set_nonblocking_cloexec(descriptor) == 0 else {
      throw SystemError("fcntl on the passed socket")
    }
    return descriptor
  }
}
