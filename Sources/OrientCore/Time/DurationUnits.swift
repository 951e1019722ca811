extension Duration {
  /// Whole microseconds, truncated toward zero and clamped to `Int64`'s range: the unit sample
  /// times count in.
  @inlinable
  package var wholeMicroseconds: Int64 {
    let (seconds, attoseconds) = components
    let (whole, overflow) = seconds.multipliedReportingOverflow(by: 1_000_000)
    guard !overflow else { return seconds < 0 ? .min : .max }
    let (sum, overflowed) = whole.addingReportingOverflow(attoseconds / 1_000_000_000_000)
    guard !overflowed else { return seconds < 0 ? .min : .max }
    return sum
  }

  /// Whole milliseconds, truncated toward zero and clamped to `Int64`'s range.
  @inlinable
  package var wholeMilliseconds: Int64 { wholeMicroseconds / 1000 }

  /// Whole seconds, truncated toward zero.
  @inlinable
  package var wholeSeconds: Int64 { components.seconds }

  /// The duration in seconds as a floating-point number, for figures and messages.
  @inlinable
  package var inSeconds: Double {
    let (seconds, attoseconds) = components
    return Double(seconds) + Double(attoseconds) / 1e18
  }
}

extension Duration {
  /// Seconds with exactly three decimals, e.g. `0.250`, as sample times are printed.
  package var secondsText: String { SampleTime(sinceOrigin: self).secondsText }
}
