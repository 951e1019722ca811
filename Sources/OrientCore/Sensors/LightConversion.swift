/// How a light sensor's reading becomes a level, as the kernel's IIO ABI defines it: a
/// processed `_input` value is the level itself; a `_raw` value is `(raw + offset) * scale`.
package struct LightConversion: Equatable, Sendable {
  /// Whether readings are processed values (`_input`), taken as they are.
  package var processed: Bool
  package var scale: Double
  package var offset: Double
  package var unit: LightUnit

  package init(processed: Bool, scale: Double = 1, offset: Double = 0, unit: LightUnit = .lux) {
    self.processed = processed
    self.scale = scale
    self.offset = offset
    self.unit = unit
  }

  /// The level of one reading, or why it is none: a light level is never negative, and a
  /// reading that makes one is a fault of the sensor, not darkness.
  package func level(raw: Double) -> Result<LightLevel, ValueError> {
    guard raw.isFinite else { return .failure(ValueError("reading \(raw) is not a number")) }
    let value = processed ? raw : (raw + offset) * scale
    guard value.isFinite else {
      return .failure(
        ValueError("reading \(DecimalFormatting.trimmed(raw, decimals: 6)) gives no finite light level"))
    }
    guard value >= 0 else {
      return .failure(
        ValueError("reading \(DecimalFormatting.trimmed(raw, decimals: 6)) gives a negative light level"))
    }
    return .success(LightLevel(value, unit: unit))
  }

  /// The smallest step of the level, for the filter's floor: one count through the scale
  /// (none for processed values, whose steps the driver decides).
  package var resolution: Double { processed ? 0 : abs(scale) }

  /// Apple's SMC light sensor through hwmon: its `light` file holds two readings, `(12,34)`,
  /// of at most 255 each; the level is the larger one as a percentage of 255, in the vendor's
  /// unit, as iio-sensor-proxy reads it.
  package static func hwmonLevel(_ text: some StringProtocol) -> Result<LightLevel, ValueError> {
    let trimmed = text.trimmingSpaces
    guard trimmed.hasPrefix("("), trimmed.hasSuffix(")") else {
      return .failure(ValueError("'\(ProtocolError.printable(trimmed))' is not (LEFT,RIGHT)"))
    }
    let parts = trimmed.dropFirst().dropLast().split(separator: ",", omittingEmptySubsequences: false)
    guard parts.count == 2, let left = Int(parts[0].trimmingSpaces), let right = Int(parts[1].trimmingSpaces),
      (0...Self.hwmonMaximum).contains(left), (0...Self.hwmonMaximum).contains(right)
    else {
      return .failure(
        ValueError(
          "'\(ProtocolError.printable(trimmed))' is not (LEFT,RIGHT) with both 0 to \(Self.hwmonMaximum)"))
    }
    return .success(LightLevel(Double(max(left, right)) / Double(Self.hwmonMaximum) * 100, unit: .vendor))
  }

  /// The largest reading of Apple's SMC light sensor.
  package static let hwmonMaximum = 255
}
