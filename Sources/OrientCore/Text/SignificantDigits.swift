extension DecimalFormatting {
  /// Formats `value` with `digits` significant digits (at most 15 decimals), e.g.
  /// `significant(0.0383072, digits: 5)` is `0.038307` and `significant(26, digits: 4)` is
  /// `26.00`; large values keep all their integer digits.
  package static func significant(_ value: Double, digits: Int) -> String {
    var decimals = max(digits, 1) - 1
    var scaled = abs(value)
    guard scaled.isFinite, scaled > 0 else { return fixed(value, decimals: decimals) }
    while scaled >= 10, decimals > 0 {
      scaled /= 10
      decimals -= 1
    }
    while scaled < 1, decimals < 15 {
      scaled *= 10
      decimals += 1
    }
    // 0.99996 to 4 digits rounds up to 1.000, not 1.0000.
    var power = 1.0
    for _ in 0..<max(digits, 1) { power *= 10 }
    if decimals > 0, scaled < 10, (scaled * power / 10).rounded() >= power { decimals -= 1 }
    return fixed(value, decimals: decimals)
  }
}
