import OrientCore

/// `orientd --help`, made from the option table so the list of options exists once.
package enum DaemonHelp {
  /// The width every line of the help fits in.
  static let width = 80
  /// The column where each option's summary starts.
  static let summaryColumn = 25

  /// The options, section by section: a heading line, then each option with its summary
  /// wrapped to 80 columns, and a blank line between sections. orientd(8) lists the same
  /// options in the same sections (HelpTests).
  package static var optionList: String {
    OptionSection.allCases.map { section in
      let lines = OptionTable.all.filter { $0.section == section }.map(lines(for:))
      return section.rawValue + ":\n" + lines.joined()
    }.joined(separator: "\n")
  }

  /// The whole help text.
  package static var text: String {
    """
    Usage: orientd [OPTION]...
    Reads an IIO accelerometer and publishes which way the screen is up.

    \(optionList)
    Orientations: normal, bottom-up, left-up, right-up, face-up, face-down.
    Every option but the actions, --demo, --replay, --config and --default-config
    can also be set in the config file as 'name = value' (see orientd.conf(5)); the
    command line wins. SIGHUP reloads the file.
    Exit status: 0 ok, 64 usage, 65 bad data, 66 missing input, 69 no sensor or
    another orientd on the socket, 73 cannot create, 78 bad config file.

    """
  }

  /// `  --name VALUE` with the summary from column 26, wrapped (a short form named at its
  /// end); a long usage gets the summary on the lines below.
  private static func lines(for option: OptionSpec) -> String {
    let usage = "--" + option.name + (option.placeholder.map { " " + $0 } ?? "")
    let summary = option.summary + (option.short.map { " (or -\($0))" } ?? "")
    let wrapped = wrap(summary, width: width - summaryColumn)
    let indent = String(repeating: " ", count: summaryColumn)
    let head = "  " + usage
    var lines: [String]
    if head.count < summaryColumn - 1 {
      lines = [head + String(repeating: " ", count: summaryColumn - head.count) + wrapped[0]]
      lines += wrapped.dropFirst().map { indent + $0 }
    } else {
      lines = [head] + wrapped.map { indent + $0 }
    }
    return lines.joined(separator: "\n") + "\n"
  }

  /// `text` broken between words into lines of at most `width` characters (a longer word
  /// stands alone).
  static func wrap(_ text: String, width: Int) -> [String] {
    var lines: [String] = []
    var line = ""
    for word in text.split(separator: " ") {
      if line.isEmpty {
        line = String(word)
      } else if line.count + 1 + word.count <= width {
        line += " " + word
      } else {
        lines.append(line)
        line = String(word)
      }
    }
    lines.append(line)
    return lines
  }

  /// What orientd's command line accepts, for the shells' completion scripts.
  package static var completionSpec: CompletionSpec {
    CompletionSpec(
      program: "orientd",
      options: OptionTable.all.map { option in
        CompletionSpec.Option(
          option.name, short: option.short, value: completionValue(option.placeholder),
          summary: option.summary,
          isTerminal: option.section == .actions && option.name != "dump")
      })
  }

  /// What follows an option, from its placeholder: lower-case words are the choices
  /// (`auto|poll|buffer`); upper-case ones name what to give.
  private static func completionValue(_ placeholder: String?) -> CompletionSpec.Value {
    guard let placeholder else { return .none }
    if placeholder == placeholder.lowercased() {
      return .choices(placeholder.split(separator: "|").map(String.init))
    }
    switch placeholder {
    case "FILE", "PATH": return .file
    case "DIR": return .directory
    case "CMD": return .command
    case "GROUP": return .group
    // --allowed: the screen orientations, comma-separated, or all.
    case "LIST": return .list(ScreenOrientation.allCases.map(\.name), alone: ["all"])
    default: return .text(hint: placeholder)
    }
  }
}
