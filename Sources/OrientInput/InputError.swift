import OrientSystem

/// Why an input device could not be found, opened, read or created; the message names the device.
package struct InputError: Error, Equatable, Sendable, CustomStringConvertible {
  /// What went wrong, naming the device (its node and, where known, its name).
  package let message: String
  /// The errno behind the failure, when there is one.
  package let code: Errno?

  /// An error saying `message`, with the errno `code` if one caused it.
  init(_ message: String, code: Errno? = nil) {
    self.message = message
    self.code = code
  }

  package var description: String { message }
}
