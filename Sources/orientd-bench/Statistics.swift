import Glibc
import OrientCore
import OrientSystem

/// The value below which `fraction` of `values` fall (nearest rank); nil when there are none.
func percentile<Value: Comparable>(_ values: [Value], _ fraction: Double) -> Value? {
  guard !values.isEmpty else { return nil }
  let sorted = values.sorted()
  let rank = Int((fraction * Double(sorted.count)).rounded(.up)) - 1
  return sorted[min(max(rank, 0), sorted.count - 1)]
}

/// The median of `values`; nil when there are none.
func median<Value: Comparable>(_ values: [Value]) -> Value? { percentile(values, 0.5) }

/// `value` with `decimals` places.
func fixed(_ value: Double, _ decimals: Int) -> String { DecimalFormatting.fixed(value, decimals: decimals) }

/// `duration` in milliseconds with three places, e.g. `0.125 ms`; `-` for none.
func millis(_ duration: Duration?) -> String {
  guard let duration else { return "-" }
  return fixed(duration.inSeconds * 1000, 3) + " ms"
}

/// `duration` in microseconds with two places, e.g. `1.25 us`.
func micros(_ duration: Duration) -> String { fixed(duration.inSeconds * 1_000_000, 2) + " us" }

/// Lets `duration` pass while a measured process works on its own.
func pause(for duration: Duration) {
  let (seconds, attoseconds) = duration.components
  var request = timespec(tv_sec: Int(seconds), tv_nsec: Int(attoseconds / 1_000_000_000))
  var remaining = timespec()
  while nanosleep(&request, &remaining) != 0 { request = remaining }
}
