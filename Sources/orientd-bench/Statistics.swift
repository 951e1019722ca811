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
func now() -> Double { Double(clockNanoseconds()) / 1e9 }
