/// The word someone most likely meant when they typed one that is not known: the one place
/// that decides "did you mean", for config keys, orientd's options and orientctl's commands
/// and options alike, so that a typo is caught the same way wherever it is made.
package enum TypoSuggestion {
  /// The candidate `typed` was most likely meant to be, or nil when none is close enough.
  ///
  /// Letter case and leading dashes are ignored (`--Sokcet` is scored as `sokcet`). In order:
  /// a candidate one edit away; else, when `typed` has three letters or more, the longest
  /// candidate it begins or that it extends (`doc` for `doctor`, `settle-time` for `settle`);
  /// else the nearest candidate at most `max(2, its length / 3)` edits away and fewer edits
  /// than `typed` has letters (a single letter is no typo of anything).
  package static func closest(to typed: String, among candidates: [String]) -> String? {
    let word = comparable(typed)
    guard !word.isEmpty else { return nil }
    let scored = candidates.map { ($0, editDistance(word, comparable($0))) }
    let nearest = scored.min { $0.1 < $1.1 }
    if let (best, distance) = nearest, distance <= 1 { return best }
    if word.count >= 3,
      let related = candidates.filter({
        let candidate = comparable($0)
        return candidate.starts(with: word) || word.starts(with: candidate)
      }).max(by: { $0.count < $1.count })
    {
      return related
    }
    guard let (best, distance) = nearest, distance <= max(2, comparable(best).count / 3),
      distance < word.count
    else { return nil }
    return best
  }

  /// The Levenshtein distance between `a` and `b`: the fewest insertions, deletions and
  /// substitutions of characters that turn one into the other.
  package static func editDistance(_ a: String, _ b: String) -> Int {
    editDistance(Array(a), Array(b))
  }

  private static func editDistance(_ a: [Character], _ b: [Character]) -> Int {
    var previous = Array(0...b.count)
    for (i, x) in a.enumerated() {
      var current = [i + 1]
      current.reserveCapacity(b.count + 1)
      for (j, y) in b.enumerated() {
        current.append(min(previous[j + 1] + 1, current[j] + 1, previous[j] + (x == y ? 0 : 1)))
      }
      previous = current
    }
    return previous[b.count]
  }

  private static func comparable(_ word: String) -> [Character] {
    Array(word.drop { $0 == "-" }.lowercased())
  }
}
