/// Why a value given as text could not be used; the caller adds where it came from.
package struct ValueError: Error, Equatable, Sendable, CustomStringConvertible {
  /// A sentence fragment such as `unknown screen orientation 'up'`.
  package var message: String

  /// Creates an error with its message.
  package init(_ message: String) { self.message = message }

  package var description: String { message }
}
