/// Fixed-point formatting without Foundation's `String(format:)`.
package enum DecimalFormatting {
  /// Formats `value` with exactly `decimals` places, e.g. `fixed(-0.98765, 3)` is `-0.988`.
  package static func fixed(_ value: Double, decimals: Int) -> String {
    guard value.isFinite else { return value.isNaN ? "nan" : (value < 0 ? "-inf" : "inf") }
    var scale = 1.0
    for _ in 0..<decimals { scale *= 10 }
    let scaled = (abs(value) * scale).rounded()
    guard scaled < 9.0e15 else { return String(value) }
    let units = UInt64(scaled)
    let divisor = UInt64(scale)
    let sign = value < 0 && units != 0 ? "-" : ""
    let whole = String(units / divisor)
    guard decimals > 0 else { return sign + whole }
    let fraction = String(units % divisor)
    let padding = String(repeating: "0", count: decimals - fraction.count)
    return sign + whole + "." + padding + fraction
  }

  /// Formats `value` with a sign always shown, e.g. `+0.500`.
  package static func signedFixed(_ value: Double, decimals: Int) -> String {
    let text = fixed(value, decimals: decimals)
    return text.hasPrefix("-") ? text : "+" + text
  }
}
