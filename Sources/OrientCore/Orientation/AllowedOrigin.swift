/// Where the allowed set in force came from.
public enum AllowedOrigin: Equatable, Sendable {
  /// `--allowed` on the command line, which always wins.
  case commandLine
  /// The config file's `allowed =`; `changedSinceSaved` when it beat a saved set because it
  /// was edited after that set was saved.
  case configFile(changedSinceSaved: Bool)
  /// The state file: a set chosen with `orientctl allow` (or an older config value) that the
  /// config file has not changed since.
  case saved
  /// `orientctl allow` in this run.
  case control
  /// Nothing chose: all four orientations.
  case defaults

  /// Picks the allowed set at start: the newest intent wins.
  ///
  /// The state file records the config file's value as it was when the state was saved. A
  /// config value that differs from that record was written after the save, so it beats the
  /// saved set; an unchanged one does not, so `orientctl allow` survives restarts. A config
  /// file that drops its `allowed =` line expresses no intent and leaves the saved set. A
  /// state file from before the record (`configAllowed` unknown) keeps the saved set.
  public static func choose(
    commandLine: AllowedOrientations?, config: AllowedOrientations?, saved: PersistedState?
  ) -> (allowed: AllowedOrientations, origin: AllowedOrigin) {
    if let commandLine { return (commandLine, .commandLine) }
    guard let saved else {
      return config.map { ($0, .configFile(changedSinceSaved: false)) } ?? (.all, .defaults)
    }
    if let config, case .known(let recorded) = saved.configAllowed, recorded != config {
      return (config, .configFile(changedSinceSaved: true))
    }
    // The saved set is the file's own value when nobody chose another.
    if let config, config == saved.allowed { return (config, .configFile(changedSinceSaved: false)) }
    return (saved.allowed, .saved)
  }

  /// How the origin reads in the log and in `info`, e.g. `orientctl allow, saved in PATH`;
  /// `config` and `state` are the files, or nil where they must not be shown.
  public func describe(config: String?, state: String?) -> String {
    switch self {
    case .commandLine: return "--allowed on the command line"
    case .configFile(let changed):
      return "allowed = in " + (config ?? "the config file")
        + (changed ? ", changed since the saved set (the newer setting wins)" : "")
    case .saved: return "the saved set" + (state.map { " in \($0)" } ?? "") + ", chosen with orientctl allow"
    case .control: return "orientctl allow"
    case .defaults: return "the default"
    }
  }
}
