import Glibc

/// A failed system call: what was attempted and the errno it returned.
public struct SystemError: Error, Sendable, CustomStringConvertible {
  /// What failed, e.g. `open /var/lib/orientd/state`.
  public var operation: String
  /// The errno value.
  public var code: Int32

  /// Captures the current errno for `operation`.
  public init(_ operation: String, code: Int32 = errno) {
    self.operation = operation
    self.code = code
  }

  public var description: String { "\(operation): \(errorText(code))" }
}

/// The text of an errno value, e.g. `No such file or directory`.
public func errorText(_ code: Int32) -> String {
  String(cString: strerror(code))
}
