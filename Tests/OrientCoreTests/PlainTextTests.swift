import Testing

@testable import OrientCore

@Suite("Searching and replacing in text, byte for byte")
struct PlainTextTests {
  @Test(
    "A text contains a needle at its start, middle or end, or an empty one, and not a longer or a different one",
    arguments: [
      ("High-speed mode not enabled", "High-speed", true),
      ("libiio: High-speed mode not enabled\n", "mode not", true),
      ("/sys/devices/virtual/input/input9", "/devices/virtual/", true),
      ("abc", "bc", true),
      ("abc", "", true),
      ("", "", true),
      ("abc", "abcd", false),
      ("/sys/devices/platform/input", "/devices/virtual/", false),
      ("aab", "ab", true),
      ("ababac", "abac", true),
      ("ababab", "abac", false),
      ("café", "é", true),
      ("cafe\u{301}", "é", false),
    ])
  func contains(text: String, needle: String, expected: Bool) {
    #expect(text.containsBytes(needle) == expected)
    #expect(Substring(text).containsBytes(needle) == expected)
  }

  @Test("Replacing characters changes each one the closure names, and only those, in one pass")
  func replacing() {
    let escaped = "a\\b'c[d]".replacingCharacters { "\\'[]".contains($0) ? "\\\($0)" : nil }
    #expect(escaped == "a\\\\b\\'c\\[d\\]")
    #expect("it's".replacingCharacters { $0 == "'" ? "'\\''" : nil } == "it'\\''s")
    #expect("plain".replacingCharacters { _ in nil } == "plain")
    #expect("".replacingCharacters { _ in "x" } == "")
    // A replacement is not searched again: no loop, no double escape.
    #expect("\\".replacingCharacters { $0 == "\\" ? "\\\\" : nil } == "\\\\")
  }
}
