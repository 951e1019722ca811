/// A reply to one command.
public enum Reply: Equatable, Sendable {
  case ok
  case pong
  case error(ProtocolError)
}

/// Renders state changes and replies as protocol lines, newline included.
public enum ProtocolRendering {
  /// A state line, e.g. `orientation left-up\n` or `{"event":"orientation","value":"left-up"}\n`.
  public static func line(for change: StateChange, format: MessageFormat) -> String {
    switch format {
    case .text:
      return change.line + "\n"
    case .json:
      let value: String
      if case .allowed(let allowed) = change {
        value = "[" + allowed.members.map { "\"\($0.name)\"" }.joined(separator: ",") + "]"
      } else {
        value = "\"" + JSON.escape(change.valueText) + "\""
      }
      return "{\"event\":\"\(change.key)\",\"value\":\(value)}\n"
    }
  }

  /// A reply line, e.g. `ok\n`, `error not-allowed ...\n` or `{"reply":"pong"}\n`.
  public static func line(for reply: Reply, format: MessageFormat) -> String {
    switch (reply, format) {
    case (.ok, .text): return "ok\n"
    case (.pong, .text): return "pong\n"
    case (.error(let error), .text):
      return "error \(error.code.rawValue)" + (error.message.isEmpty ? "" : " " + error.message) + "\n"
    case (.ok, .json): return "{\"reply\":\"ok\"}\n"
    case (.pong, .json): return "{\"reply\":\"pong\"}\n"
    case (.error(let error), .json):
      return
        "{\"reply\":\"error\",\"code\":\"\(error.code.rawValue)\",\"message\":\"\(JSON.escape(error.message))\"}\n"
    }
  }

  /// One line of `help` output.
  public static func helpLine(_ text: String, format: MessageFormat) -> String {
    switch format {
    case .text: return text + "\n"
    case .json: return "{\"help\":\"\(JSON.escape(text))\"}\n"
    }
  }
}

/// The little JSON orientd writes.
public enum JSON {
  /// Escapes a string for use inside JSON quotes.
  public static func escape(_ text: String) -> String {
    var result = ""
    for scalar in text.unicodeScalars {
      switch scalar {
      case "\"": result += "\\\""
      case "\\": result += "\\\\"
      case "\n": result += "\\n"
      case "\r": result += "\\r"
      case "\t": result += "\\t"
      default:
        if scalar.value < 0x20 {
          let hex = String(scalar.value, radix: 16)
          result += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
        } else {
          result.unicodeScalars.append(scalar)
        }
      }
    }
    return result
  }
}
