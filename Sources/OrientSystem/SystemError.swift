/// A failed system call: what was attempted and the errno it returned.
public struct SystemError: Error, Sendable, CustomStringConvertible {
  /// What failed, e.g. `open /var/lib/orientd/state`.
  public var operation: String
  /// Why.
  public var code: Errno

  /// An error for `operation` with `code`.
  public init(_ operation: String, code: Errno) {
    self.operation = operation
    self.code = code
  }

  public var description: String { "\(operation): \(code)" }
}
