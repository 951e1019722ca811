/// `orientd --help`, made from the option table so the list of options exists once.
public enum DaemonHelp {
  /// The options, section by section: a heading line, then one line per option, and a blank
  /// line between sections. The README's option list is this text.
  public static var optionList: String {
    OptionSection.allCases.map { section in
      let lines = OptionTable.all.filter { $0.section == section }.map(line(for:))
      return section.rawValue + ":\n" + lines.joined()
    }.joined(separator: "\n")
  }

  /// The whole help text.
  public static var text: String {
    """
    Usage: orientd [OPTION]...
    Reads an IIO accelerometer and publishes which way the screen is up.

    \(optionList)
    Orientations: normal, bottom-up, left-up, right-up, face-up, face-down.
    Every option but the actions, --demo, --replay, --config and --default-config can also
    be set in the config file as 'name = value'; the command line wins. SIGHUP reloads the file.
    Exit status: 0 ok, 64 usage, 65 bad data, 66 missing input, 69 no sensor, 73 cannot create,
    78 bad config file.

    """
  }

  /// `  --name VALUE` with the summary from column 26.
  private static func line(for option: OptionSpec) -> String {
    let usage = "--" + option.name + (option.placeholder.map { " " + $0 } ?? "")
    let padding = String(repeating: " ", count: max(1, 23 - usage.count))
    return "  " + usage + padding + option.summary + "\n"
  }
}
