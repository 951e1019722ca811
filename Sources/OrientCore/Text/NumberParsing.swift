/// Strict number parsing shared by every text format orientd reads.
///
/// `Double(String)` alone accepts `nan`, `inf` and hexadecimal floats, none of
/// which belong in sysfs values, traces or configuration.
package enum NumberParsing {
  /// Parses a finite decimal number such as `-9.81`, `0.038307` or `1e-3`.
  package static func finiteDouble<S: StringProtocol>(_ text: S) -> Double? {
    guard isDecimalNumber(text.utf8), let value = Double(text), value.isFinite else { return nil }
    return value
  }

  /// Whether `bytes` spell a decimal number: an optional sign, digits with at most one dot,
  /// and an optional exponent (`e` or `E`, an optional sign, digits).
  ///
  /// Checked before the C library converts, so that `nan`, `inf`, hexadecimal floats and
  /// trailing bytes are refused.
  static func isDecimalNumber<Bytes: Collection<UInt8>>(_ bytes: Bytes) -> Bool {
    var sawDigit = false
    var sawDot = false
    var sawExponent = false
    var exponentDigits = false
    var previous: UInt8 = 0
    for byte in bytes {
      switch byte {
      case UInt8(ascii: "0")...UInt8(ascii: "9"):
        sawDigit = true
        if sawExponent { exponentDigits = true }
      case UInt8(ascii: "+"), UInt8(ascii: "-"):
        let atStart = previous == 0
        let afterExponent = previous == UInt8(ascii: "e") || previous == UInt8(ascii: "E")
        guard atStart || afterExponent else { return false }
      case UInt8(ascii: "."):
        guard !sawDot, !sawExponent else { return false }
        sawDot = true
      case UInt8(ascii: "e"), UInt8(ascii: "E"):
        guard sawDigit, !sawExponent else { return false }
        sawExponent = true
      default:
        return false
      }
      previous = byte
    }
    return sawDigit && (!sawExponent || exponentDigits)
  }

  /// Parses a non-negative decimal integer without sign, such as `200`.
  package static func unsignedInteger<S: StringProtocol>(_ text: S, maximum: Int = Int.max) -> Int? {
    guard !text.isEmpty, text.utf8.count <= 18 else { return nil }
    var value = 0
    for byte in text.utf8 {
      guard byte >= UInt8(ascii: "0"), byte <= UInt8(ascii: "9") else { return nil }
      value = value * 10 + Int(byte - UInt8(ascii: "0"))
    }
    return value <= maximum ? value : nil
  }

  /// Parses non-negative decimal seconds such as `12.345` into microseconds, rounding past 6 places.
  package static func seconds<S: StringProtocol>(_ text: S) -> SampleTime? {
    var copy = String(text)
    return copy.withUTF8 { seconds(bytes: $0) }
  }

  /// Parses a length of time given in decimal seconds, such as `0.5`, to the microsecond.
  package static func duration<S: StringProtocol>(seconds text: S) -> Duration? {
    seconds(text).map { .microseconds($0.microseconds) }
  }

  /// Parses non-negative decimal seconds from bytes, e.g. `12.345`: digits, then optionally a
  /// dot and more digits. Up to 12 whole digits; fraction digits past 6 round the last one.
  package static func seconds(bytes: UnsafeBufferPointer<UInt8>) -> SampleTime? {
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
  /// Parses a finite decimal number from raw bytes, such as a sysfs value `-256\n`.
  /// Surrounding blanks, and the NUL libiio may leave at the end, are allowed.
  ///
  /// The bytes are checked as `finiteDouble(_:)` checks text, then converted by the C
  /// library; values of up to 15 bytes (every sysfs reading) need no allocation.
  package static func finiteDouble(bytes: UnsafeBufferPointer<UInt8>) -> Double? {
    let number = bytes.trimmingBlanks
    // A raw reading is an integer: converted here, exactly as the C library would (every
    // integer of up to 15 digits is a Double), without building a String for it. This was
    // the largest part of a poll's own work (BENCHMARKS.md, "Memory and CPU per poll").
    if let integer = smallInteger(number) { return integer }
    guard isDecimalNumber(number) else { return nil }
    guard let value = Double(String(decoding: number, as: UTF8.self)), value.isFinite else { return nil }
    return value
  }

  /// `bytes` as a Double when they are an optional sign and 1 to 15 decimal digits; else nil.
  static func smallInteger(_ bytes: Slice<UnsafeBufferPointer<UInt8>>) -> Double? {
    var index = bytes.startIndex
    var negative = false
    if index < bytes.endIndex, bytes[index] == UInt8(ascii: "-") || bytes[index] == UInt8(ascii: "+") {
      negative = bytes[index] == UInt8(ascii: "-")
      index += 1
    }
    let digits = bytes.endIndex - index
    guard digits >= 1, digits <= 15 else { return nil }
    var magnitude: Int64 = 0
    while index < bytes.endIndex {
      let digit = bytes[index] &- UInt8(ascii: "0")
      guard digit <= 9 else { return nil }
      magnitude = magnitude * 10 + Int64(digit)
      index += 1
    }
    return negative ? -Double(magnitude) : Double(magnitude)
  }
}
