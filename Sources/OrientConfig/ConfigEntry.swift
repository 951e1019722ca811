/// A config file line: `key = value`, with where it came from.
public struct ConfigEntry: Equatable, Sendable {
  public var key: String
  public var value: String
  /// `file:line`, for messages.
  public var location: String

  /// Creates an entry.
  public init(key: String, value: String, location: String) {
    self.key = key
    self.value = value
    self.location = location
  }
}
