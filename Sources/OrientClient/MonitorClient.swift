import OrientCore
import OrientSystem

/// `orientctl monitor`: prints the state and its changes, and outlives orientd restarts.
///
/// When orientd is not there yet, or closes the connection, it says so once on stderr and
/// tries again every second until orientd is (back) there, as monitor-sensor waits for
/// iio-sensor-proxy; with `once` (`--no-reconnect`) it exits 69 instead. A socket this user
/// may not use ends it at once (77). It ends cleanly as soon as nobody reads its output, even
/// while it waits. With `supports`, its orientation lines are worked out within those
/// orientations (`supports LIST`).
enum MonitorClient {
  static func run(
    socket location: SocketLocation, style: MonitorStyle, once: Bool, supports: AllowedOrientations? = nil
  ) -> Int32 {
    var connection: LineConnection
    var socket: String
    do {
      (connection, socket) = try location.connect()
    } catch {
      guard !once, !error.isDenied else { return error.report() }
      let reasons = error.attempts.map { "\($0.path) (\($0.error.code))" }.joined(separator: " or at ")
      StandardStream.error.report("orientctl: waiting for orientd at \(reasons); trying every second\n")
      guard let next = reconnect(location) else { return 0 }
      (connection, socket) = next
    }
    var printed: MonitorSensorFormat.Shown?
    while true {
      let session = Session(connection: connection, socket: socket)
      switch session.monitor(style: style, supports: supports, printed: &printed) {
      case .outputClosed: return 0
      case .refused(let status): return status
      case .cannotStart(let reason):
        StandardStream.error.report("orientctl: \(reason)\n")
        guard !once else { return ExitCode.unavailable.rawValue }
        // Each connection has systemd start orientd again, and five in 10 s make it give up
        // on the service and its socket: wait longer than for an orientd that restarts.
        StandardStream.error.report("orientctl: trying again every 30 s\n")
        guard let next = reconnect(location, every: .seconds(30)) else { return 0 }
        StandardStream.error.report("orientctl: reconnected to orientd at \(next.path)\n")
        (connection, socket) = next
      case .lost:
        guard !once else {
          StandardStream.error.report("orientctl: orientd at \(socket) closed the connection\n")
          return ExitCode.unavailable.rawValue
        }
        StandardStream.error.report(
          "orientctl: orientd at \(socket) closed the connection; reconnecting every second\n")
        guard let next = reconnect(location) else { return 0 }
        StandardStream.error.report("orientctl: reconnected to orientd at \(next.path)\n")
        (connection, socket) = next
      }
    }
  }

  /// Tries every place of `location` every `period`; nil when stdout's reader goes away first.
  private static func reconnect(
    _ location: SocketLocation, every period: Duration = .seconds(1)
  ) -> (connection: LineConnection, path: String)? {
    while true {
      // Waiting on stdout rather than sleeping ends the wait as soon as its reader goes; a
      // failed wait only makes this attempt come sooner.
      let ready = try? Readiness.wait([(StandardStream.output.descriptor, [])], timeout: period)
      if let events = ready?.first, !events.isDisjoint(with: [.error, .hangUp]) { return nil }
      // Not there yet is what this loop waits out; the user was told once it was lost.
      if let next = try? location.connect() { return next }
    }
  }
}
