import OrientCore

// The figures the attacks print: the same nearest-rank percentiles and fixed decimals as
// orientd-bench's, which is a program of its own and shares no code with this one.

/// The value below which `fraction` of `values` fall (nearest rank); nan when there are none.
func percentile(_ values: [Double], _ fraction: Double) -> Double {
  guard !values.isEmpty else { return .nan }
  let sorted = values.sorted()
  let rank = Int((fraction * Double(sorted.count)).rounded(.up)) - 1
  return sorted[min(max(rank, 0), sorted.count - 1)]
}

/// The median of `values`.
func median(_ values: [Double]) -> Double { percentile(values, 0.5) }

/// `value` with `decimals` places.
func fixed(_ value: Double, _ decimals: Int) -> String { DecimalFormatting.fixed(value, decimals: decimals) }

extension Duration {
  /// The duration in milliseconds, as the attacks print their figures.
  var inMilliseconds: Double { inSeconds * 1000 }
}
