import OrientCore

/// The config file: `key = value` lines, keys named like the long options, `#` comments.
public enum ConfigFile {
  /// The keys the file accepts.
  public static var keys: [String] { OptionTable.configKeys }

  /// Splits a config file into entries, checking every key (values are checked when applied).
  ///
  /// `#` starts a comment at the start of a line or after a blank, so values may hold `#`.
  public static func parse(_ text: String, path: String) throws(Failure) -> [ConfigEntry] {
    var entries: [ConfigEntry] = []
    // Editors on other systems save UTF-8 with a byte order mark; it is not part of a key.
    var text = Substring(text)
    if text.unicodeScalars.first == "\u{FEFF}" { text = Substring(text.unicodeScalars.dropFirst()) }
    for (index, rawLine) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
      let location = "\(path):\(index + 1)"
      let line = stripComment(rawLine).trimmingSpaces
      if line.isEmpty { continue }
      guard let equals = line.firstIndex(of: "=") else {
        throw .config("\(location): expected 'key = value', got '\(ProtocolError.printable(line))'")
      }
      let key = String(line[..<equals].trimmingSpaces)
      let value = String(line[line.index(after: equals)...].trimmingSpaces)
      guard !key.isEmpty else { throw .config("\(location): a line starts with '=' and has no key") }
      guard keys.contains(key) else {
        let hint = OptionTable.closest(to: key, among: keys).map { " (did you mean '\($0)'?)" } ?? ""
        let extra =
          OptionTable.commandLineNames.contains(key) ? " ('\(key)' is a command-line option only)" : ""
        throw .config(
          "\(location): unknown key '\(ProtocolError.printable(Substring(key)))'\(hint)\(extra)")
      }
      guard !value.isEmpty else { throw .config("\(location): \(key): the value is empty") }
      entries.append(ConfigEntry(key: key, value: value, location: location))
    }
    return entries
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
