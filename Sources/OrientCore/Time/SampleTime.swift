/// A point in time of a sample, in microseconds from an arbitrary origin.
///
/// Integer time keeps settle comparisons exact: `0.4 - 0.1 >= 0.3` is not
/// reliable in floating point.
package struct SampleTime: Comparable, Hashable, Sendable {
  /// Microseconds since the origin (the start of a run, or a trace's zero).
  package var microseconds: Int64

  /// Creates a time from microseconds.
  @inlinable
  package init(microseconds: Int64) { self.microseconds = microseconds }

  /// Creates a time from milliseconds.
  @inlinable
  init(milliseconds: Int64) { self.microseconds = milliseconds * 1000 }

  /// The origin.
  package static let zero = SampleTime(microseconds: 0)

  @inlinable
  package static func < (lhs: SampleTime, rhs: SampleTime) -> Bool {
    lhs.microseconds < rhs.microseconds
  }

  /// The time `delta` later (whole microseconds), saturating at the ends of `Int64` instead of
  /// trapping.
  ///
  /// Callers that must not go past a limit (a trace's latest time) check the result.
  @inlinable
  func advanced(by delta: Duration) -> SampleTime {
    let step = delta.wholeMicroseconds
    let (sum, overflow) = microseconds.addingReportingOverflow(step)
    guard overflow else { return SampleTime(microseconds: sum) }
    return SampleTime(microseconds: step < 0 ? .min : .max)
  }

  /// The time `rhs` later, saturating (see `advanced(by:)`).
  @inlinable
  package static func + (lhs: SampleTime, rhs: Duration) -> SampleTime { lhs.advanced(by: rhs) }

  /// The time from `rhs` to `lhs`, negative when `lhs` is earlier; saturating.
  @inlinable
  package static func - (lhs: SampleTime, rhs: SampleTime) -> Duration {
    let (difference, overflow) = lhs.microseconds.subtractingReportingOverflow(rhs.microseconds)
    guard overflow else { return .microseconds(difference) }
    return .microseconds(lhs < rhs ? Int64.min : Int64.max)
  }

  /// The time `offset` after the origin.
  @inlinable
  package init(sinceOrigin offset: Duration) { self.microseconds = offset.wholeMicroseconds }

  /// The time `nanoseconds` after the origin, truncated toward zero to whole microseconds, as
  /// `init(sinceOrigin:)` gives it for `.nanoseconds(nanoseconds)`.
  ///
  /// For the clock's own nanoseconds: every sample is timed through it, and building a
  /// `Duration` (128-bit arithmetic) cost more than the rest of timing a sample.
  @inlinable
  package init(sinceOriginNanoseconds nanoseconds: Int64) { self.microseconds = nanoseconds / 1000 }

  /// Seconds with exactly three decimals, e.g. `12.345`, as `--dump` prints them.
  package var secondsText: String { formatted(decimals: 3) }

  /// Seconds with `decimals` places (0 to 6; others are taken as the nearest), rounded half up.
  ///
  /// Works on the magnitude as `UInt64`, where every `Int64` time, `Int64.min` included, and
  /// the half unit added for rounding fit.
  package func formatted(decimals: Int) -> String {
    let decimals = min(max(decimals, 0), 6)
    var divisor: UInt64 = 1
    for _ in 0..<(6 - decimals) { divisor *= 10 }
    let units = (microseconds.magnitude + divisor / 2) / divisor
    var unitsPerSecond: UInt64 = 1
    for _ in 0..<decimals { unitsPerSecond *= 10 }
    let sign = microseconds < 0 && units != 0 ? "-" : ""
    let whole = String(units / unitsPerSecond)
    guard decimals > 0 else { return sign + whole }
    let fraction = String(units % unitsPerSecond)
    return sign + whole + "." + String(repeating: "0", count: decimals - fraction.count) + fraction
  }
}
