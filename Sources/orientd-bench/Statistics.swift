import Glibc
import OrientCore
import OrientSystem

/// The value below which `fraction` of `values` fall (nearest rank).
func percentile(_ values: [Double], _ fraction: Double) -> Double {
  guard !values.isEmpty else { return .nan }
  let sorted = values.sorted()
  let rank = Int((fraction * Double(sorted.count)).rounded(.up)) - 1
  return sorted[min(max(rank, 0), sorted.count - 1)]
}

/// The median of `values`.
func median(_ values: [Double]) -> Double { percentile(values, 0.5) }

/// Seconds on the monotonic clock.
func now() -> Double { Double(MonotonicInstant.now.nanoseconds) / 1e9 }

/// `value` with `decimals` places.
func fixed(_ value: Double, _ decimals: Int) -> String { DecimalFormatting.fixed(value, decimals: decimals) }

/// Lets time pass while a measured process works on its own.
func pauseMilliseconds(_ milliseconds: Int) {
  var request = timespec(tv_sec: milliseconds / 1000, tv_nsec: (milliseconds % 1000) * 1_000_000)
  var remaining = timespec()
  while nanosleep(&request, &remaining) != 0 { request = remaining }
}
