import OrientCore
import Testing

@Suite("Escaping control characters in outside text")
struct ControlCharacterTests {
  @Test("Plain text passes through unchanged")
  func plainTextIsUnchanged() {
    #expect("accel_3d (Bosch BMA250) é".escapingControlCharacters == "accel_3d (Bosch BMA250) é")
  }

  @Test(
    "Line breaks, escapes and other controls become visible escapes",
    arguments: [
      ("a\nb", "a\\nb"), ("a\r\nb", "a\\r\\nb"), ("\u{1B}[31mred", "\\x1b[31mred"),
      ("tab\there", "tab\\there"),
      ("nul\u{0}", "nul\\x00"), ("del\u{7F}", "del\\x7f"), ("next\u{85}line", "next\\u{85}line"),
      ("sep\u{2028}", "sep\\u{2028}"), ("back\\slash", "back\\\\slash"),
    ])
  func controlsAreEscaped(input: String, expected: String) {
    #expect(input.escapingControlCharacters == expected)
  }

  @Test("An escaped text has no line break left in it")
  func noLineBreakSurvives() {
    let forged = "bma250\nsensor offline\r\n\u{2029}device normal"
    #expect(!forged.escapingControlCharacters.contains { $0.isNewline })
  }
}
