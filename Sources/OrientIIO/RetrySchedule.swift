/// Waits between attempts that keep failing: 2 s, then twice as long each time, up to a minute.
///
/// Used for a remote context that was refused and for a buffer that stayed silent: each
/// attempt costs something (a context's memory, a second of probing), so a lasting failure
/// is tried rarely, while a short one is soon noticed to be over.
public struct RetrySchedule: Sendable {
  /// The first wait, in nanoseconds.
  public static let firstNanoseconds: UInt64 = 2_000_000_000
  /// The longest wait, in nanoseconds.
  public static let longestNanoseconds: UInt64 = 60_000_000_000

  /// Failures since the last success.
  public private(set) var failures = 0

  /// A schedule with no failures yet.
  public init() {}

  /// Counts a failure and returns how long to wait before the next attempt.
  public mutating func delayAfterFailure() -> UInt64 {
    failures += 1
    // Capped before the shift: 2 s << 5 is already past a minute.
    return min(Self.firstNanoseconds << UInt64(min(failures - 1, 5)), Self.longestNanoseconds)
  }

  /// Forgets the failures after a success.
  public mutating func reset() { failures = 0 }
}
