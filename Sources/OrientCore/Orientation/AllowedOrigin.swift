/// Where the allowed set in force came from.
package enum AllowedOrigin: Equatable, Sendable {
  /// `--allowed` on the command line, which always wins.
  case commandLine
  /// The config file's `allowed =`; `changedSinceSaved` when it beat a saved set because it
  /// was edited after that set was saved.
  case configFile(changedSinceSaved: Bool)
  /// The state file's set, which the config file has not changed since; `chosen` when it was
  /// chosen with `orientctl allow` (false: a file from before orientd recorded that).
  case saved(chosen: Bool)
  /// `orientctl allow` in this run.
  case control
  /// Nothing chose, or the config file's `allowed =` that chose was removed: all four.
  case defaults

  /// Whether the set was chosen with `orientctl allow`, as the state file records it.
  package var isChosen: Bool {
    switch self {
    case .control, .saved: return true
    case .commandLine, .configFile, .defaults: return false
    }
  }

  /// Picks the allowed set at start: the newest intent wins.
  ///
  /// `--allowed` always wins, and only for that run. A saved set that was not chosen with
  /// `orientctl allow` (it came from the config, the command line or the default) gives way to
  /// the config file as it is now. A chosen one survives restarts until the config file's
  /// `allowed =` is edited: the state file records the file's value, so a value that differs
  /// from the record was written after the save and wins. Removing the line expresses no
  /// intent about a chosen set. A state file from before these records keeps its set.
  package static func choose(
    commandLine: AllowedOrientations?, config: AllowedOrientations?, saved: PersistedState?
  ) -> (allowed: AllowedOrientations, origin: AllowedOrigin) {
    if let commandLine { return (commandLine, .commandLine) }
    let fromConfig =
      config.map { ($0, AllowedOrigin.configFile(changedSinceSaved: false)) } ?? (.all, .defaults)
    guard let saved, saved.allowedChosen != false else { return fromConfig }
    if let config, case .known(let recorded) = saved.configAllowed, recorded != config {
      return (config, .configFile(changedSinceSaved: true))
    }
    // The saved set is the file's own value when nobody chose another.
    if let config, config == saved.allowed { return fromConfig }
    return (saved.allowed, .saved(chosen: saved.allowedChosen == true))
  }

  /// The allowed set after the config file was read again, or nil when it stays as it is.
  ///
  /// An edited `allowed =` is the newest intent, unless `--allowed` pins the set. A removed
  /// line gives way to the default only where the line was what chose the set.
  package func reloaded(
    config: AllowedOrientations?, previousConfig: AllowedOrientations?, commandLineGiven: Bool
  ) -> (allowed: AllowedOrientations, origin: AllowedOrigin)? {
    guard config != previousConfig, !commandLineGiven else { return nil }
    if let config { return (config, .configFile(changedSinceSaved: true)) }
    guard case .configFile = self else { return nil }
    return (.all, .defaults)
  }

  /// How the origin reads in the log and in `info`, e.g. `orientctl allow, saved in PATH`;
  /// `config` and `state` are the files, or nil where they must not be shown.
  package func describe(config: String?, state: String?) -> String {
    switch self {
    case .commandLine: return "--allowed on the command line"
    case .configFile(let changed):
      return "allowed = in " + (config ?? "the config file")
        + (changed ? ", changed since the saved set (the newer setting wins)" : "")
    case .saved(let chosen):
      return "the saved set" + (state.map { " in \($0)" } ?? "")
        + (chosen ? ", chosen with orientctl allow" : "")
    case .control: return "orientctl allow"
    case .defaults: return "the default"
    }
  }
}
