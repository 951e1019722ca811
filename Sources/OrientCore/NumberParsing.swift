/// Strict number parsing shared by every text format orientd reads.
///
/// `Double(String)` alone accepts `nan`, `inf` and hexadecimal floats, none of
/// which belong in sysfs values, traces or configuration.
public enum NumberParsing {
  /// Parses a finite decimal number such as `-9.81`, `0.038307` or `1e-3`.
  public static func finiteDouble<S: StringProtocol>(_ text: S) -> Double? {
    var sawDigit = false
    var sawDot = false
    var sawExponent = false
    var previous: UInt8 = 0
    for byte in text.utf8 {
      switch byte {
      case UInt8(ascii: "0")...UInt8(ascii: "9"):
        sawDigit = true
      case UInt8(ascii: "+"), UInt8(ascii: "-"):
        let atStart = previous == 0
        let afterExponent = previous == UInt8(ascii: "e") || previous == UInt8(ascii: "E")
        guard atStart || afterExponent else { return nil }
      case UInt8(ascii: "."):
        guard !sawDot, !sawExponent else { return nil }
        sawDot = true
      case UInt8(ascii: "e"), UInt8(ascii: "E"):
        guard sawDigit, !sawExponent else { return nil }
        sawExponent = true
      default:
        return nil
      }
      previous = byte
    }
    guard sawDigit, let value = Double(String(text)), value.isFinite else { return nil }
    return value
  }

  /// Parses a non-negative decimal integer without sign, such as `200`.
  public static func unsignedInteger<S: StringProtocol>(_ text: S, maximum: Int = Int.max) -> Int? {
    guard !text.isEmpty, text.utf8.count <= 18 else { return nil }
    var value = 0
    for byte in text.utf8 {
      guard byte >= UInt8(ascii: "0"), byte <= UInt8(ascii: "9") else { return nil }
      value = value * 10 + Int(byte - UInt8(ascii: "0"))
    }
    return value <= maximum ? value : nil
  }

  /// Parses a decimal integer with an optional sign, such as `-256`.
  public static func signedInteger<S: StringProtocol>(_ text: S) -> Int? {
    guard let first = text.first else { return nil }
    if first == "-" || first == "+" {
      guard let magnitude = unsignedInteger(text.dropFirst()) else { return nil }
      return first == "-" ? -magnitude : magnitude
    }
    return unsignedInteger(text)
  }

  /// Parses non-negative decimal seconds such as `12.345` into microseconds, rounding past 6 places.
  public static func seconds<S: StringProtocol>(_ text: S) -> SampleTime? {
    let parts = text.split(separator: ".", maxSplits: 1, omittingEmptySubsequences: false)
    guard let whole = unsignedInteger(parts[0], maximum: 1_000_000_000_000) else { return nil }
    var micros = 0
    if parts.count == 2 {
      let fraction = parts[1]
      guard !fraction.isEmpty, fraction.utf8.count <= 12, unsignedInteger(fraction) != nil else {
        return nil
      }
      var digits = Array(fraction.utf8.map { Int($0 - UInt8(ascii: "0")) })
      let roundUp = digits.count > 6 && digits[6] >= 5
      digits = Array(digits.prefix(6)) + Array(repeating: 0, count: max(0, 6 - digits.count))
      micros = digits.reduce(0) { $0 * 10 + $1 } + (roundUp ? 1 : 0)
    }
    return SampleTime(microseconds: Int64(whole) * 1_000_000 + Int64(micros))
  }
}
