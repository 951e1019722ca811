import OrientCore

/// The config file: `key = value` lines, keys named like the long options, `#` comments.
///
/// How a value is read: blanks around it are dropped; `#` after a blank starts a comment,
/// so a value may hold `#` elsewhere (`a#b`). A value in double or single quotes, with
/// nothing but blanks or a comment after the closing quote, is taken without the quotes and
/// as it is between them (blanks and `#` included; there are no escapes). A value that only
/// starts with a quote (`"my hook" --now`, as a shell command may) is taken as it is, quotes
/// and all. A key given twice is a warning, and the later line wins; only `hook` adds up.
package enum ConfigFile {
  /// The keys the file accepts.
  package static var keys: [String] { OptionTable.configKeys }

  /// The keys whose lines add up rather than replace each other.
  static let listKeys: Set = ["hook"]

  /// Splits a config file into entries, checking every key (values are checked when applied).
  package static func parse(_ text: String, path: String) throws(Failure) -> [ConfigEntry] {
    var entries: [ConfigEntry] = []
    // Editors on other systems save UTF-8 with a byte order mark; it is not part of a key.
    var text = Substring(text)
    if text.unicodeScalars.first == "\u{FEFF}" { text = Substring(text.unicodeScalars.dropFirst()) }
    // A file saved on Windows ends its lines with CRLF, which Swift reads as one Character
    // unequal to "\n": split on both, or such a file is one line, ignored behind a comment.
    let lines = text.split(omittingEmptySubsequences: false) { $0 == "\n" || $0 == "\r\n" }
    for (index, rawLine) in lines.enumerated() {
      let location = "\(path):\(index + 1)"
      // A NUL ends a C string: `hook = echo shown\0; echo hidden` would run half of what the
      // file says, and the protocol refuses NUL from clients for the same reason.
      guard !rawLine.unicodeScalars.contains("\0") else {
        throw .config("\(location): the line holds a NUL byte")
      }
      let line = stripComment(rawLine).trimmingSpaces
      if line.isEmpty { continue }
      guard let equals = line.firstIndex(of: "=") else {
        throw .config("\(location): expected 'key = value', got '\(ProtocolError.printable(line))'")
      }
      let key = String(line[..<equals].trimmingSpaces)
      guard !key.isEmpty else { throw .config("\(location): a line starts with '=' and has no key") }
      guard keys.contains(key) else {
        let hint = TypoSuggestion.closest(to: key, among: keys).map { " (did you mean '\($0)'?)" } ?? ""
        let extra =
          OptionTable.commandLineNames.contains(key) ? " ('\(key)' is a command-line option only)" : ""
        throw .config(
          "\(location): unknown key '\(ProtocolError.printable(Substring(key)))'\(hint)\(extra)")
      }
      // The comment was cut before the first `=`, so the value starts after the same `=` in
      // the raw line, where a quoted value may still hold its `#`.
      let rawValue = rawLine[rawLine.index(after: equals)...]
      let value: String
      do {
        value = try self.value(rawValue)
      } catch {
        throw .config("\(location): \(key): \(error.message)")
      }
      guard !value.isEmpty else { throw .config("\(location): \(key): the value is empty") }
      entries.append(ConfigEntry(key: key, value: value, location: location))
    }
    return entries
  }

  /// The warnings for keys given more than once: each later line names the first, and wins.
  package static func repeatedKeyWarnings(_ entries: [ConfigEntry]) -> [String] {
    var first: [String: String] = [:]
    var warnings: [String] = []
    for entry in entries where !listKeys.contains(entry.key) {
      if let earlier = first[entry.key] {
        warnings.append(
          "\(entry.location): \(entry.key) is given again (first at \(earlier)); \(entry.location) wins")
      } else {
        first[entry.key] = entry.location
      }
    }
    return warnings
  }

  /// The value in the text after `=`: unquoted when it is wholly quoted, else without its
  /// comment and surrounding blanks.
  private static func value(_ text: Substring) throws(ValueError) -> String {
    let start = text.trimmingSpaces
    guard let quote = start.first, quote == "\"" || quote == "'" else {
      return String(stripComment(text).trimmingSpaces)
    }
    let inside = start.dropFirst()
    guard let close = inside.firstIndex(of: quote) else {
      throw ValueError("the value's \(quote) is not closed")
    }
    let after = inside[inside.index(after: close)...].trimmingSpaces
    guard after.isEmpty || after.first == "#" else {
      // Quotes inside a longer value are the value's own (a shell command's).
      return String(stripComment(text).trimmingSpaces)
    }
    return String(inside[..<close])
  }

  private static func stripComment(_ line: Substring) -> Substring {
    var previous: Character = " "
    for index in line.indices {
      if line[index] == "#", previous == " " || previous == "\t" { return line[..<index] }
      previous = line[index]
    }
    return line
  }
}
