/// An error reply: a code clients can match and a message people can read.
package struct ProtocolError: Error, Equatable, Sendable {
  /// The machine-readable error codes.
  package enum Code: String, Sendable {
    case unknownCommand = "unknown-command"
    case badArgument = "bad-argument"
    case notAllowed = "not-allowed"
    /// `accept-suggestion` with no rotation suggested.
    case noSuggestion = "no-suggestion"
    case permissionDenied = "permission-denied"
    case lineTooLong = "line-too-long"
    case badEncoding = "bad-encoding"
    case tooManyClients = "too-many-clients"
    /// orientd cannot start: its config file or its command line has a mistake.
    case badConfig = "bad-config"
    /// A warning with `ok`: the change holds but could not be saved.
    case notSaved = "not-saved"
    case internalError = "internal-error"
  }

  package var code: Code
  package var message: String

  /// Creates an error reply.
  package init(_ code: Code, _ message: String = "") {
    self.code = code
    self.message = message
  }

  /// Client text made safe to echo: printable ASCII only, at most 40 characters.
  package static func printable(_ text: Substring) -> String {
    var result = ""
    for scalar in text.unicodeScalars.prefix(40) {
      result.unicodeScalars.append(scalar.value >= 0x20 && scalar.value < 0x7f ? scalar : "?")
    }
    return text.unicodeScalars.count > 40 ? result + "..." : result
  }
}
