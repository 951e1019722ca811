/// A config file line: `key = value`, with where it came from.
package struct ConfigEntry: Equatable, Sendable {
  package var key: String
  package var value: String
  /// `file:line`, for messages.
  package var location: String

  /// Creates an entry.
  package init(key: String, value: String, location: String) {
    self.key = key
    self.value = value
    self.location = location
  }
}
