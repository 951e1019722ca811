/// Why a value given as text could not be used; the caller adds where it came from.
public struct ValueError: Error, Equatable, Sendable, CustomStringConvertible {
  /// A sentence fragment such as `unknown screen orientation 'up'`.
  public var message: String

  /// Creates an error with its message.
  public init(_ message: String) { self.message = message }

  public var description: String { message }
}

extension StringProtocol {
  /// The text without leading and trailing spaces, tabs and line ends.
  public var trimmingSpaces: Substring {
    let isBlank: (Character) -> Bool = { $0 == " " || $0 == "\t" || $0 == "\r" || $0 == "\n" || $0 == "\r\n" }
    let text = Substring(self)
    guard let start = text.firstIndex(where: { !isBlank($0) }) else { return text[text.endIndex...] }
    let end = text.lastIndex(where: { !isBlank($0) })!
    return text[start...end]
  }
}
