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
}
