/// Lets a repeating warning through at most once per period, counting the ones held back.
public struct RateLimitedWarning: Sendable {
  private let periodNanoseconds: UInt64
  private var lastNanoseconds: UInt64?
  private var suppressed = 0

  /// Creates a limiter that allows one message per `seconds`.
  public init(seconds: UInt64 = 10) { periodNanoseconds = seconds * 1_000_000_000 }

  /// Logs `message` unless one was logged within the period.
  public mutating func warn(_ message: @autoclosure () -> String, now: UInt64 = Clock.monotonicNanoseconds) {
    if let last = lastNanoseconds, now - last < periodNanoseconds {
      suppressed += 1
      return
    }
    let note = suppressed > 0 ? " (\(suppressed) similar messages suppressed)" : ""
    Log.warning(message() + note)
    lastNanoseconds = now
    suppressed = 0
  }
}
