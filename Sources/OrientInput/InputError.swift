/// Why an input device could not be found, opened, read or created; the message names the device.
public struct InputError: Error, Equatable, Sendable, CustomStringConvertible {
  /// What went wrong, naming the device (its node and, where known, its name).
  public let message: String
  /// The errno behind the failure, when there is one.
  public let code: Int32?

  /// An error saying `message`, with the errno `code` if one caused it.
  init(_ message: String, code: Int32? = nil) {
    self.message = message
    self.code = code
  }

  public var description: String { message }
}
