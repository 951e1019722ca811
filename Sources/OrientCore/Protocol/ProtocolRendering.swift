/// A reply to one command.
package enum Reply: Equatable, Sendable {
  case ok
  /// The command took effect, with a caveat the client should show (the state could not be
  /// saved): `ok not-saved ...`.
  case okWithWarning(ProtocolError)
  case pong
  case error(ProtocolError)
}

/// Renders state changes and replies as protocol lines, newline included.
package enum ProtocolRendering {
  /// A state line, e.g. `orientation left-up\n` or `{"event":"orientation","value":"left-up"}\n`.
  package static func line(for change: StateChange, format: MessageFormat) -> String {
    switch format {
    case .text:
      return change.line + "\n"
    case .json:
      return "{\"event\":\"\(change.key.rawValue)\",\"value\":\(JSON.value(of: change))}\n"
    }
  }

  /// A reply line, e.g. `ok\n`, `error not-allowed ...\n` or `{"reply":"pong"}\n`.
  package static func line(for reply: Reply, format: MessageFormat) -> String {
    switch (reply, format) {
    case (.ok, .text): return "ok\n"
    case (.okWithWarning(let warning), .text): return "ok \(warning.code.rawValue) \(warning.message)\n"
    case (.pong, .text): return "pong\n"
    case (.error(let error), .text):
      return "error \(error.code.rawValue)" + (error.message.isEmpty ? "" : " " + error.message) + "\n"
    case (.ok, .json): return "{\"reply\":\"ok\"}\n"
    case (.okWithWarning(let warning), .json):
      return
        "{\"reply\":\"ok\",\"warning\":\"\(warning.code.rawValue)\",\"message\":\"\(JSON.escape(warning.message))\"}\n"
    case (.pong, .json): return "{\"reply\":\"pong\"}\n"
    case (.error(let error), .json):
      return
        "{\"reply\":\"error\",\"code\":\"\(error.code.rawValue)\",\"message\":\"\(JSON.escape(error.message))\"}\n"
    }
  }

  /// A sample line: `sample 1.250 0.0000 -1.0000 0.0000`, or `raw ...` before the mount matrix.
  package static func line(for sample: Sample, stream: SampleStream, format: MessageFormat) -> String {
    let vector = stream == .raw ? sample.raw : sample.gravity
    let name = stream == .raw ? "raw" : "sample"
    let values = [vector.x, vector.y, vector.z].map { DecimalFormatting.fixed($0, decimals: 4) }
    switch format {
    case .text:
      return "\(name) \(sample.time.secondsText) \(values.joined(separator: " "))\n"
    case .json:
      return
        "{\"event\":\"\(name)\",\"t\":\(sample.time.secondsText),\"x\":\(values[0]),\"y\":\(values[1]),\"z\":\(values[2])}\n"
    }
  }

  /// An `info` line: `info scale 0.038307 (in_accel_scale)`.
  package static func line(for item: InfoItem, format: MessageFormat) -> String {
    switch format {
    case .text: return "info \(item.key) \(item.value)\n"
    case .json: return "{\"info\":\"\(JSON.escape(item.key))\",\"value\":\"\(JSON.escape(item.value))\"}\n"
    }
  }

  /// One line of `help` output.
  package static func helpLine(_ text: String, format: MessageFormat) -> String {
    switch format {
    case .text: return text + "\n"
    case .json: return "{\"help\":\"\(JSON.escape(text))\"}\n"
    }
  }
}

/// One fact the `info` command reports, such as `matrix-source udev ACCEL_MOUNT_MATRIX`.
package struct InfoItem: Equatable, Sendable {
  package var key: String
  package var value: String

  /// Creates an item.
  package init(_ key: String, _ value: String) {
    self.key = key
    self.value = value
  }

  /// Parses a text `info` line.
  package init?(line: some StringProtocol) {
    let parts = line.split(separator: " ", maxSplits: 2)
    guard parts.count >= 2, parts[0] == "info" else { return nil }
    key = String(parts[1])
    value = parts.count == 3 ? String(parts[2]) : ""
  }
}

/// The little JSON orientd writes.
package enum JSON {
  /// A change's value as JSON: an array of names for `allowed`; a number, or null while
  /// unknown, for `hinge` and `heading`; for `light` a number (or null) followed by its
  /// `"unit"`; a string otherwise. A reading with no sensor is the string `"none"`.
  package static func value(of change: StateChange) -> String {
    switch change {
    case .allowed(let allowed):
      return "[" + allowed.members.map { "\"\($0.name)\"" }.joined(separator: ",") + "]"
    case .hinge(let degrees):
      return degrees.map(String.init) ?? "null"
    case .heading(.value(let degrees)):
      return DecimalFormatting.trimmed(degrees, decimals: 1)
    case .heading(.unknown):
      return "null"
    case .light(.value(let level)):
      return DecimalFormatting.trimmed(level.value, decimals: 2) + ",\"unit\":\"\(level.unit.rawValue)\""
    case .light(.unknown):
      return "null"
    default:
      return "\"" + escape(change.valueText) + "\""
    }
  }

  /// Escapes a string for use inside JSON quotes.
  package static func escape(_ text: String) -> String {
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
