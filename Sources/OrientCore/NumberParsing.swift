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
    var copy = String(text)
    return copy.withUTF8 { seconds(bytes: $0) }
  }

  /// Parses non-negative decimal seconds from bytes, e.g. `12.345`: digits, then optionally a
  /// dot and more digits. Up to 12 whole digits; fraction digits past 6 round the last one.
  public static func seconds(bytes: UnsafeBufferPointer<UInt8>) -> SampleTime? {
    let zero = UInt8(ascii: "0")
    var index = 0
    var whole: Int64 = 0
    while index < bytes.count, bytes[index] >= zero, bytes[index] <= zero + 9 {
      guard index < 12 else { return nil }
      whole = whole * 10 + Int64(bytes[index] - zero)
      index += 1
    }
    guard index > 0 else { return nil }
    var micros: Int64 = 0
    if index < bytes.count {
      guard bytes[index] == UInt8(ascii: ".") else { return nil }
      index += 1
      var digits = 0
      var roundUp = false
      while index < bytes.count, bytes[index] >= zero, bytes[index] <= zero + 9 {
        if digits < 6 {
          micros = micros * 10 + Int64(bytes[index] - zero)
        } else if digits == 6 {
          roundUp = bytes[index] >= zero + 5
        }
        digits += 1
        index += 1
      }
      guard digits > 0, digits <= 12, index == bytes.count else { return nil }
      for _ in digits..<max(digits, 6) { micros *= 10 }
      if roundUp { micros += 1 }
    }
    return SampleTime(microseconds: whole * 1_000_000 + micros)
  }
}

extension NumberParsing {
  /// Parses a finite decimal number from raw bytes, such as a sysfs value `-256\n`,
  /// without building a String. Surrounding spaces and newlines are allowed.
  ///
  /// Integers (what IIO `raw` attributes hold) are exact; decimals are computed from
  /// their digits and scaled by a power of ten, accurate to about one part in 10^15.
  public static func finiteDouble(bytes: UnsafeBufferPointer<UInt8>) -> Double? {
    var index = 0
    let count = bytes.count
    func isBlank(_ byte: UInt8) -> Bool { byte == 0x20 || byte == 0x0A || byte == 0x09 || byte == 0x0D }
    while index < count, isBlank(bytes[index]) { index += 1 }
    var end = count
    while end > index, isBlank(bytes[end - 1]) || bytes[end - 1] == 0 { end -= 1 }
    guard index < end else { return nil }

    var negative = false
    if bytes[index] == UInt8(ascii: "-") || bytes[index] == UInt8(ascii: "+") {
      negative = bytes[index] == UInt8(ascii: "-")
      index += 1
    }
    var mantissa: UInt64 = 0
    var exponent = 0
    var digits = 0
    var sawDot = false
    while index < end {
      let byte = bytes[index]
      if byte >= UInt8(ascii: "0"), byte <= UInt8(ascii: "9") {
        if mantissa < 1_000_000_000_000_000_000 {
          mantissa = mantissa * 10 + UInt64(byte - UInt8(ascii: "0"))
          if sawDot { exponent -= 1 }
        } else if !sawDot {
          exponent += 1  // digits past 19 only scale the value
        }
        digits += 1
      } else if byte == UInt8(ascii: "."), !sawDot {
        sawDot = true
      } else {
        break
      }
      index += 1
    }
    guard digits > 0 else { return nil }
    if index < end {
      guard bytes[index] == UInt8(ascii: "e") || bytes[index] == UInt8(ascii: "E") else { return nil }
      index += 1
      var exponentNegative = false
      if index < end, bytes[index] == UInt8(ascii: "-") || bytes[index] == UInt8(ascii: "+") {
        exponentNegative = bytes[index] == UInt8(ascii: "-")
        index += 1
      }
      var written = 0
      var exponentDigits = 0
      while index < end, bytes[index] >= UInt8(ascii: "0"), bytes[index] <= UInt8(ascii: "9") {
        if written < 10_000 { written = written * 10 + Int(bytes[index] - UInt8(ascii: "0")) }
        exponentDigits += 1
        index += 1
      }
      guard exponentDigits > 0, index == end else { return nil }
      exponent += exponentNegative ? -written : written
    }
    var value = Double(mantissa)
    if exponent != 0, mantissa != 0 {
      guard exponent > -400, exponent < 400 else { return exponent < 0 ? (negative ? -0.0 : 0) : nil }
      var scale = 1.0
      for _ in 0..<abs(exponent) { scale *= 10 }
      value = exponent < 0 ? value / scale : value * scale
    }
    guard value.isFinite else { return nil }
    return negative ? -value : value
  }
}
