import Glibc

/// A point in time on CLOCK_MONOTONIC, the only clock the daemon reads.
///
/// Instants are compared and subtracted; what lies between two of them is a `Duration`.
package struct MonotonicInstant: Comparable, Hashable, Sendable {
  /// Nanoseconds since the clock's (boot-time) origin.
  package let nanoseconds: UInt64

  /// The instant `nanoseconds` after the clock's origin.
  package init(nanoseconds: UInt64) { self.nanoseconds = nanoseconds }

  /// The current time.
  package static var now: MonotonicInstant {
    var now = timespec()
    clock_gettime(CLOCK_MONOTONIC, &now)
    return MonotonicInstant(nanoseconds: UInt64(now.tv_sec) * 1_000_000_000 + UInt64(now.tv_nsec))
  }

  package static func < (lhs: MonotonicInstant, rhs: MonotonicInstant) -> Bool {
    lhs.nanoseconds < rhs.nanoseconds
  }

  /// The time from `rhs` to `lhs`, negative when `lhs` is earlier.
  package static func - (lhs: MonotonicInstant, rhs: MonotonicInstant) -> Duration {
    lhs >= rhs
      ? .nanoseconds(Int64(clamping: lhs.nanoseconds - rhs.nanoseconds))
      : .zero - .nanoseconds(Int64(clamping: rhs.nanoseconds - lhs.nanoseconds))
  }

  /// The instant `duration` later (earlier when negative), kept within the clock's range.
  package static func + (lhs: MonotonicInstant, rhs: Duration) -> MonotonicInstant {
    let delta = rhs.wholeNanoseconds
    if delta >= 0 {
      let (sum, overflow) = lhs.nanoseconds.addingReportingOverflow(UInt64(delta))
      return MonotonicInstant(nanoseconds: overflow ? .max : sum)
    }
    let back = delta.magnitude
    return MonotonicInstant(nanoseconds: lhs.nanoseconds > back ? lhs.nanoseconds - back : 0)
  }

  /// The time elapsed since this instant (zero or more).
  package var elapsed: Duration { max(.zero, Self.now - self) }
}

extension Duration {
  /// Whole nanoseconds, truncated toward zero and clamped to `Int64`'s range (292 years).
  package var wholeNanoseconds: Int64 {
    let (seconds, attoseconds) = components
    let (whole, overflow) = seconds.multipliedReportingOverflow(by: 1_000_000_000)
    guard !overflow else { return seconds < 0 ? .min : .max }
    let (sum, overflowed) = whole.addingReportingOverflow(attoseconds / 1_000_000_000)
    guard !overflowed else { return seconds < 0 ? .min : .max }
    return sum
  }

  /// Whole milliseconds, rounded up (a wait must never end early), at least 0, for calls that
  /// take milliseconds.
  var millisecondsRoundedUp: Int32 { OrientSystem.millisecondsRoundedUp(nanoseconds: wholeNanoseconds) }
}

/// Whole milliseconds in `nanoseconds`, rounded up (a wait must never end early), at least 0:
/// for calls that take milliseconds, from a `Duration` or from the clock's own nanoseconds.
func millisecondsRoundedUp(nanoseconds: Int64) -> Int32 {
  let nanoseconds = max(0, nanoseconds)
  return Int32(clamping: nanoseconds / 1_000_000 + (nanoseconds % 1_000_000 == 0 ? 0 : 1))
}
