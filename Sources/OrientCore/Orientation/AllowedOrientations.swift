/// A set of screen orientations, such as the ones the screen may take.
package struct AllowedOrientations: OptionSet, Hashable, Sendable {
  package let rawValue: UInt8

  package init(rawValue: UInt8) { self.rawValue = rawValue & 0b1111 }

  /// The set holding just `orientation`.
  package init(_ orientation: ScreenOrientation) {
    self.init(rawValue: 1 << orientation.rawValue)
  }

  /// All four orientations, the default.
  package static let all = AllowedOrientations(rawValue: 0b1111)

  /// Whether `orientation` is in the set.
  package func contains(_ orientation: ScreenOrientation) -> Bool {
    contains(AllowedOrientations(orientation))
  }

  /// The members in clockwise order: normal, left-up, bottom-up, right-up.
  package var members: [ScreenOrientation] {
    ScreenOrientation.allCases.filter { contains($0) }
  }

  /// The comma-separated names in clockwise order, e.g. `normal,left-up`.
  package var listText: String {
    members.map(\.name).joined(separator: ",")
  }

  /// Parses a non-empty comma-separated list such as `normal, left-up`, or `all` for the four.
  package static func parse(_ text: some StringProtocol) throws(ValueError) -> AllowedOrientations {
    var result = AllowedOrientations()
    for item in text.split(separator: ",", omittingEmptySubsequences: false) {
      let name = item.trimmingSpaces
      if name == "all" {
        result = .all
        continue
      }
      guard let orientation = ScreenOrientation(name: name) else {
        if name.isEmpty { throw ValueError("empty orientation in list '\(text)'") }
        throw ValueError(
          "unknown screen orientation '\(name)' (expected all, or normal, left-up, bottom-up or right-up)")
      }
      result.insert(AllowedOrientations(orientation))
    }
    guard !result.isEmpty else { throw ValueError("the allowed list is empty") }
    return result
  }
}
