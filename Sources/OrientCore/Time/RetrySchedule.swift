/// Waits between attempts that keep failing: 2 s, then twice as long each time, up to a minute.
///
/// Used for a remote context that was refused, for a buffer that stayed silent and for a bus
/// that cannot be reached: each attempt costs something (a context's memory, a second of
/// probing), so a lasting failure is tried rarely, while a short one is soon noticed to be over.
package struct RetrySchedule: Sendable {
  /// The first wait.
  package static let first = Duration.seconds(2)
  /// The longest wait.
  package static let longest = Duration.seconds(60)

  /// Failures since the last success.
  package private(set) var failures = 0

  /// A schedule with no failures yet.
  package init() {}

  /// Counts a failure and returns how long to wait before the next attempt.
  package mutating func delayAfterFailure() -> Duration {
    failures += 1
    // Capped before the doubling: 2 s * 2^5 is already past a minute.
    return min(Self.first * (1 << min(failures - 1, 5)), Self.longest)
  }

  /// Forgets the failures after a success.
  package mutating func reset() { failures = 0 }
}
