/// A failed system call: what was attempted and the errno it returned.
package struct SystemError: Error, Sendable, CustomStringConvertible {
  /// What failed, e.g. `open /var/lib/orientd/state`.
  package var operation: String
  /// Why.
  package var code: Errno

  /// An error for `operation` with `code`.
  package init(_ operation: String, code: Errno) {
    self.operation = operation
    self.code = code
  }

  package var description: String { "\(operation): \(code)" }
}
