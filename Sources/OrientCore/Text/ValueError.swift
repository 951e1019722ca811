/// Why a value given as text could not be used; the caller adds where it came from.
public struct ValueError: Error, Equatable, Sendable, CustomStringConvertible {
  /// A sentence fragment such as `unknown screen orientation 'up'`.
  public var message: String

  /// Creates an error with its message.
  public init(_ message: String) { self.message = message }

  public var description: String { message }
}
