/// What a light sensor's level is measured in, as iio-sensor-proxy's `LightLevelUnit` says.
package enum LightUnit: String, Sendable {
  /// Lux: every IIO light sensor. The kernel's ABI calls `in_intensity*` values unitless, but
  /// HID sensor hubs (and Windows 8's sensor class they follow) report lux, and
  /// iio-sensor-proxy takes them as lux too.
  case lux
  /// A vendor's own scale: Apple's SMC light sensor (`applesmc`), read through hwmon, as a
  /// percentage of its largest reading.
  case vendor
}

/// A light level and its unit.
package struct LightLevel: Equatable, Sendable {
  package var value: Double
  package var unit: LightUnit

  package init(_ value: Double, unit: LightUnit) {
    self.value = value
    self.unit = unit
  }

  /// As the text protocol writes it: `350.5 lux`.
  package var text: String { DecimalFormatting.trimmed(value, decimals: 2) + " " + unit.rawValue }
}

extension DecimalFormatting {
  /// Formats `value` with at most `decimals` places and no trailing zeros: `350.5`, `12`,
  /// `0.25`.
  package static func trimmed(_ value: Double, decimals: Int) -> String {
    var text = fixed(value, decimals: decimals)
    guard text.contains(".") else { return text }
    while text.hasSuffix("0") { text.removeLast() }
    if text.hasSuffix(".") { text.removeLast() }
    return text == "-0" ? "0" : text
  }
}
