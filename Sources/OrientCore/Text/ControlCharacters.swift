extension String {
  /// The text with every control character written as a visible escape (`\n`, `\r`, `\t`,
  /// `\x1b`, `\u{85}`) and every backslash doubled.
  ///
  /// Text that comes from a sensor, a remote server or a library's messages passes through
  /// this before it reaches a reply line or the log, so it can neither start a forged line nor
  /// steer a terminal; doubling backslashes keeps the escape unambiguous.
  package var escapingControlCharacters: String {
    guard unicodeScalars.contains(where: { $0.needsEscape }) else { return self }
    var escaped = ""
    for scalar in unicodeScalars {
      switch scalar {
      case "\\": escaped += "\\\\"
      case "\n": escaped += "\\n"
      case "\r": escaped += "\\r"
      case "\t": escaped += "\\t"
      case _ where scalar.value < 0x20 || scalar.value == 0x7F:
        escaped += "\\x" + hexDigits(scalar.value, width: 2)
      case _ where scalar.needsEscape:
        escaped += "\\u{" + hexDigits(scalar.value, width: 1) + "}"
      default: escaped.unicodeScalars.append(scalar)
      }
    }
    return escaped
  }
}

extension Unicode.Scalar {
  /// C0 and C1 controls, DEL, the line and paragraph separators, and the backslash that
  /// starts an escape.
  fileprivate var needsEscape: Bool {
    value < 0x20 || (0x7F...0x9F).contains(value) || value == 0x2028 || value == 0x2029 || self == "\\"
  }
}

private func hexDigits(_ value: UInt32, width: Int) -> String {
  let digits = String(value, radix: 16)
  return String(repeating: "0", count: max(0, width - digits.count)) + digits
}
