extension StringProtocol {
  /// Whether `needle`'s UTF-8 bytes occur in this text's, compared byte for byte.
  ///
  /// The daemon's checks on text (a library's message, a sysfs path) are on exact bytes, and
  /// `contains(_:)` with a string argument comes from the string-processing library, whose
  /// code would otherwise be loaded into orientd for these few calls (BENCHMARKS.md, "Memory").
  package func containsBytes(_ needle: some StringProtocol) -> Bool {
    let haystack = Array(utf8)
    let pattern = Array(needle.utf8)
    guard !pattern.isEmpty else { return true }
    guard pattern.count <= haystack.count else { return false }
    for start in 0...(haystack.count - pattern.count)
    where haystack[start] == pattern[0] && haystack[start..<start + pattern.count].elementsEqual(pattern) {
      return true
    }
    return false
  }
}

extension StringProtocol {
  /// This text with every character for which `replacement` gives text replaced by it.
  ///
  /// One pass, in place of chained `replacing(_:with:)` calls, which come from the
  /// string-processing library.
  package func replacingCharacters(_ replacement: (Character) -> String?) -> String {
    var result = ""
    for character in self {
      if let text = replacement(character) { result += text } else { result.append(character) }
    }
    return result
  }
}
