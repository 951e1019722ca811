/// The little of iiod's text protocol that orientd speaks itself, read exactly as libiio 0.24's
/// client reads it (`network.c`, `iiod-client.c`), so that orientd sees what libiio will see.
enum IIODProtocol {
  /// The default iiod port.
  static let defaultPort: UInt16 = 30431

  /// The command that asks for the context's XML. libiio sends `ZPRINT` first only when it
  /// was built with zstd, which Debian's libiio 0.24 is not.
  static let printCommand = "PRINT\r\n"

  /// The longest reply line libiio reads (its line buffer), newline included.
  static let maximumLineBytes = 1024

  /// Where libiio connects for the part of an `ip:` URI after `ip:`: `HOST`, `HOST:PORT`,
  /// an IPv6 address, or `[IPV6]:PORT`. nil for an empty host, which makes libiio look
  /// for a server with DNS-SD instead, and for a port libiio refuses.
  static func address(networkURI rest: String) -> (host: String, port: UInt16)? {
    var host = Substring(rest)
    var portText: Substring?
    if let first = rest.firstIndex(of: ":"), let last = rest.lastIndex(of: ":") {
      if first == last {
        // HOST:PORT
        host = rest[..<first]
        portText = rest[rest.index(after: first)...]
      } else if last > rest.startIndex, rest[rest.index(before: last)] == "]" {
        // [IPV6]:PORT: libiio drops the first character and the closing bracket.
        host = rest.dropFirst().prefix(upTo: rest.index(before: last))
        portText = rest[rest.index(after: last)...]
      }
      // Otherwise an IPv6 address on the default port.
    }
    var port = defaultPort
    if let portText {
      guard let parsed = unsignedLong(portText.utf8), parsed <= 0xFFFF else { return nil }
      port = UInt16(parsed)
    }
    guard !host.isEmpty else { return nil }
    return (String(host), port)
  }

  /// The number in a reply line, as libiio reads it: `strtol` from the first byte that is
  /// not a newline, base 10, then cut to a C `int`. nil where libiio fails (no digits, or
  /// beyond `long`).
  static func integer(inLine line: some Collection<UInt8>) -> Int32? {
    var bytes = line.drop(while: { $0 == UInt8(ascii: "\n") })[...]
    bytes = bytes.drop(while: isCSpace)
    var negative = false
    if let sign = bytes.first, sign == UInt8(ascii: "+") || sign == UInt8(ascii: "-") {
      negative = sign == UInt8(ascii: "-")
      bytes = bytes.dropFirst()
    }
    var value: Int64 = 0
    var digits = 0
    for byte in bytes {
      guard byte >= UInt8(ascii: "0"), byte <= UInt8(ascii: "9") else { break }
      let digit = Int64(byte - UInt8(ascii: "0"))
      // Accumulated as a negative number, so that LONG_MIN itself fits.
      let (shifted, overflow) = value.multipliedReportingOverflow(by: 10)
      let (next, underflow) = shifted.subtractingReportingOverflow(digit)
      guard !overflow, !underflow else { return nil }
      value = next
      digits += 1
    }
    guard digits > 0 else { return nil }
    if !negative {
      guard value != .min else { return nil }
      value = -value
    }
    return Int32(truncatingIfNeeded: value)
  }

  /// `strtoul(text, &end, 0)` as libiio parses a port: blanks, a sign, then hexadecimal
  /// after `0x`, octal after `0`, else decimal, up to the first other byte. nil without
  /// digits; a value past 64 bits saturates, as strtoul does.
  static func unsignedLong(_ text: some Collection<UInt8>) -> UInt64? {
    var bytes = text.drop(while: isCSpace)[...]
    var negative = false
    if let sign = bytes.first, sign == UInt8(ascii: "+") || sign == UInt8(ascii: "-") {
      negative = sign == UInt8(ascii: "-")
      bytes = bytes.dropFirst()
    }
    var base: UInt64 = 10
    var sawDigit = false
    if bytes.first == UInt8(ascii: "0") {
      sawDigit = true
      bytes = bytes.dropFirst()
      if let x = bytes.first, x == UInt8(ascii: "x") || x == UInt8(ascii: "X"),
        bytes.dropFirst().first.flatMap({ digitValue($0, base: 16) }) != nil
      {
        base = 16
        bytes = bytes.dropFirst()
      } else {
        base = 8
      }
    }
    var value: UInt64 = 0
    var saturated = false
    for byte in bytes {
      guard let digit = digitValue(byte, base: base) else { break }
      sawDigit = true
      let (shifted, overflow) = value.multipliedReportingOverflow(by: base)
      let (next, carry) = shifted.addingReportingOverflow(digit)
      if overflow || carry { saturated = true }
      value = next
    }
    guard sawDigit else { return nil }
    if saturated { return .max }
    return negative ? 0 &- value : value
  }

  private static func digitValue(_ byte: UInt8, base: UInt64) -> UInt64? {
    let value: UInt64
    switch byte {
    case UInt8(ascii: "0")...UInt8(ascii: "9"): value = UInt64(byte - UInt8(ascii: "0"))
    case UInt8(ascii: "a")...UInt8(ascii: "f"): value = UInt64(byte - UInt8(ascii: "a")) + 10
    case UInt8(ascii: "A")...UInt8(ascii: "F"): value = UInt64(byte - UInt8(ascii: "A")) + 10
    default: return nil
    }
    return value < base ? value : nil
  }

  /// C's `isspace` in the C locale.
  private static func isCSpace(_ byte: UInt8) -> Bool {
    byte == 0x20 || (0x09...0x0D).contains(byte)
  }
}
