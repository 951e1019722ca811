import OrientCore
import Testing

@Suite("Parsing and printing numbers")
struct NumberTests {
  @Test("Decimal seconds become exact microseconds")
  func seconds() {
    #expect(NumberParsing.seconds("1.5") == SampleTime(microseconds: 1_500_000))
    #expect(NumberParsing.seconds("0.0000004") == SampleTime(microseconds: 0))
    #expect(NumberParsing.seconds("0.0000005") == SampleTime(microseconds: 1))
    #expect(NumberParsing.seconds("12") == SampleTime(microseconds: 12_000_000))
    #expect(NumberParsing.seconds("1.") == nil)
    #expect(NumberParsing.seconds(".5") == nil)
    #expect(NumberParsing.seconds("+1") == nil)
  }

  @Test(
    "Only plain finite decimals parse as numbers",
    arguments: ["nan", "inf", "-inf", "0x10", "1e", "--1", "1.2.3", "", " 1", "e5", "1e5e5"])
  func rejectsNonDecimal(text: String) {
    #expect(NumberParsing.finiteDouble(text) == nil)
  }

  @Test("Plain decimals parse, including signs and exponents")
  func acceptsDecimals() {
    #expect(NumberParsing.finiteDouble("-256") == -256)
    #expect(NumberParsing.finiteDouble("0.038307") == 0.038307)
    #expect(NumberParsing.finiteDouble("+1.5e-3") == 0.0015)
    #expect(NumberParsing.finiteDouble("1e400") == nil)
  }

  @Test("Fixed formatting rounds and never prints negative zero")
  func fixed() {
    #expect(DecimalFormatting.fixed(-0.98765, decimals: 3) == "-0.988")
    #expect(DecimalFormatting.fixed(-0.0001, decimals: 3) == "0.000")
    #expect(DecimalFormatting.fixed(2, decimals: 0) == "2")
    #expect(DecimalFormatting.fixed(0.05, decimals: 1) == "0.1")
    #expect(DecimalFormatting.signedFixed(0.5, decimals: 2) == "+0.50")
  }

  @Test("Times print as seconds with three decimals")
  func timeText() {
    #expect(SampleTime(microseconds: 1_234_567).secondsText == "1.235")
    #expect(SampleTime.zero.secondsText == "0.000")
    #expect(SampleTime(microseconds: 61_000_000).secondsText == "61.000")
  }
}
