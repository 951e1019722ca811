import OrientCore
import Testing

@Suite("Suggesting what a typo meant")
struct TypoSuggestionTests {
  static let keys = ["threshold", "settle", "shake-tolerance", "allowed", "hooks-dir", "hook"]
  static let commands = ["get", "info", "lock", "unlock", "monitor", "rotate", "allow", "doctor"]
  static let options = ["--socket", "--timeout", "--json", "--id"]

  @Test("The edit distance counts insertions, deletions and substitutions")
  func editDistanceCountsEdits() {
    #expect(TypoSuggestion.editDistance("", "") == 0)
    #expect(TypoSuggestion.editDistance("", "abc") == 3)
    #expect(TypoSuggestion.editDistance("treshold", "threshold") == 1)
    #expect(TypoSuggestion.editDistance("kitten", "sitting") == 3)
    #expect(TypoSuggestion.editDistance("é", "e") == 1)
  }

  @Test(
    "A near miss is suggested, whatever its case and dashes",
    arguments: [
      ("treshold", keys, "threshold"), ("setle", keys, "settle"), ("Lokc", commands, "lock"),
      ("moniter", commands, "monitor"), ("--sokcet", options, "--socket"),
      ("--TIMEOUT", options, "--timeout"),
    ])
  func nearMissIsSuggested(typed: String, candidates: [String], expected: String) {
    #expect(TypoSuggestion.closest(to: typed, among: candidates) == expected)
  }

  @Test(
    "A beginning or a valid word with something added is suggested from three letters",
    arguments: [
      ("mon", commands, "monitor"), ("settle-time", keys, "settle"), ("hooks-directory", keys, "hooks-dir"),
    ])
  func prefixIsSuggested(typed: String, candidates: [String], expected: String) {
    #expect(TypoSuggestion.closest(to: typed, among: candidates) == expected)
  }

  @Test(
    "Nothing is suggested for a word that is no typo of any candidate",
    arguments: [
      ("x", commands), ("--x", options), ("", keys), ("--", options), ("frobnicate", keys), ("zz", commands),
    ])
  func farWordGetsNothing(typed: String, candidates: [String]) {
    #expect(TypoSuggestion.closest(to: typed, among: candidates) == nil)
  }
}
