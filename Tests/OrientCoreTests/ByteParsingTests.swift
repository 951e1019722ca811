import OrientCore
import Testing

@Suite("Parsing sysfs bytes")
struct ByteParsingTests {
  func parse(_ text: String) -> Double? {
    Array(text.utf8).withUnsafeBufferPointer { NumberParsing.finiteDouble(bytes: $0) }
  }

  @Test("Integers, decimals and exponents parse, with sysfs's trailing newline")
  func accepts() {
    #expect(parse("-256\n") == -256)
    #expect(parse("  42 ") == 42)
    #expect(parse("+7") == 7)
    #expect(parse("0.038307\n") == 0.038307)
    #expect(parse("1.5e3") == 1500)
    #expect(parse("25E-2") == 0.25)
    #expect(parse("-0") == 0)
    let long = parse("123456789012345678901234") ?? 0
    #expect(abs(long / 1.2345678901234568e23 - 1) < 1e-15)
  }

  @Test(
    "Garbage, empty values and non-finite numbers are rejected",
    arguments: ["", "\n", "abc", "nan", "inf", "-", "1.2.3", "12abc", "1e", "0x10", "1e999", "--1", "."])
  func rejects(text: String) {
    #expect(parse(text) == nil)
  }

  @Test("Bytes parse to the same value as text for ordinary readings")
  func agreesWithTextParser() {
    for text in ["-256", "0.038307", "9.80665", "-1e-3", "1000000", "0.5"] {
      #expect(parse(text) == NumberParsing.finiteDouble(text), "\(text)")
    }
  }

  @Test("Integers take the fast path and give exactly what the C library gives, sign of zero included")
  func integersAgreeWithTheCLibrary() {
    var texts = [
      "0", "-0", "+0", "7", "-7", "+7", "007", "-256", "999999999999999", "-999999999999999",
      "1000000000000000", "9007199254740993", "123456789012345678",
    ]
    var seed: UInt64 = 0x9E37_79B9_7F4A_7C15
    for _ in 0..<2000 {
      seed = seed &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
      let digits = Int(seed >> 60) + 1
      var limit: UInt64 = 1
      for _ in 0..<min(digits, 15) { limit *= 10 }
      let magnitude = (seed >> 8) % limit
      texts.append((seed & 1 == 0 ? "-" : "") + String(magnitude))
    }
    for text in texts {
      let parsed = parse(text + "\n")
      let expected = Double(text)
      #expect(parsed == expected, "\(text)")
      #expect(parsed?.sign == expected?.sign, "the sign of \(text)")
    }
  }
}
