/// Lets a repeating warning through at most once per period, counting the ones held back.
package struct RateLimitedWarning: Sendable {
  private let period: Duration
  private var last: MonotonicInstant?
  private var suppressed = 0

  /// Creates a limiter that allows one message per `period`.
  package init(period: Duration = .seconds(10)) { self.period = period }

  /// Logs `message` unless one was logged within the period.
  package mutating func warn(_ message: @autoclosure () -> String, now: MonotonicInstant = .now) {
    if let last, now - last < period {
      suppressed += 1
      return
    }
    let note = suppressed > 0 ? " (\(suppressed) similar messages suppressed)" : ""
    Log.warning(message() + note)
    last = now
    suppressed = 0
  }
}
