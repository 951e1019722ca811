/// A point in time of a sample, in microseconds from an arbitrary origin.
///
/// Integer time keeps settle comparisons exact: `0.4 - 0.1 >= 0.3` is not
/// reliable in floating point.
public struct SampleTime: Comparable, Hashable, Sendable {
  /// Microseconds since the origin (the start of a run, or a trace's zero).
  public var microseconds: Int64

  /// Creates a time from microseconds.
  @inlinable
  public init(microseconds: Int64) { self.microseconds = microseconds }

  /// Creates a time from milliseconds.
  @inlinable
  public init(milliseconds: Int64) { self.microseconds = milliseconds * 1000 }

  /// The origin.
  public static let zero = SampleTime(microseconds: 0)

  @inlinable
  public static func < (lhs: SampleTime, rhs: SampleTime) -> Bool {
    lhs.microseconds < rhs.microseconds
  }

  /// The time `microseconds` later.
  @inlinable
  public func advanced(byMicroseconds delta: Int64) -> SampleTime {
    SampleTime(microseconds: microseconds + delta)
  }

  /// Seconds with exactly three decimals, e.g. `12.345`, as `--dump` prints them.
  public var secondsText: String { formatted(decimals: 3) }

  /// Seconds with `decimals` places (0 to 6), rounded half up.
  public func formatted(decimals: Int) -> String {
    var divisor: Int64 = 1
    for _ in 0..<(6 - decimals) { divisor *= 10 }
    let magnitude = microseconds < 0 ? -microseconds : microseconds
    let units = (magnitude + divisor / 2) / divisor
    var unitsPerSecond: Int64 = 1
    for _ in 0..<decimals { unitsPerSecond *= 10 }
    let sign = microseconds < 0 && units != 0 ? "-" : ""
    let whole = String(units / unitsPerSecond)
    guard decimals > 0 else { return sign + whole }
    let fraction = String(units % unitsPerSecond)
    return sign + whole + "." + String(repeating: "0", count: decimals - fraction.count) + fraction
  }
}
