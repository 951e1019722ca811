/// What reloading the config file does to the running options: the settings a reload
/// applies take their new values, the others keep theirs and are named as needing a restart.
///
/// Pure, and derived from the option table: a setting is live or restart-only where it is
/// declared (`SettingField`), so a new setting cannot be forgotten here.
package struct ReloadPlan: Sendable {
  /// The options to run with from now on: the running ones with every live setting's new
  /// value (and where it was set).
  package let options: DaemonOptions
  /// The live settings whose value changed, in the table's order.
  package let applied: [String]
  /// The settings whose value changed but that only a restart applies, in the table's order.
  package let needRestart: [String]

  /// The plan for going from `running` to `loaded` (the file read again, with the same
  /// command line over it).
  package init(running: DaemonOptions, loaded: DaemonOptions) {
    var options = running
    var applied: [String] = []
    var needRestart: [String] = []
    for spec in OptionTable.settings {
      guard let field = spec.field else { continue }
      switch field.reload {
      case .live:
        // Where it is set follows the file even when the value stays (a line moved).
        options.origins[spec.name] = loaded.origins[spec.name]
        guard field.differs(running, loaded) else { continue }
        field.copy(&options, loaded)
        applied.append(spec.name)
      case .restart:
        if field.differs(running, loaded) { needRestart.append(spec.name) }
      }
    }
    self.options = options
    self.applied = applied
    self.needRestart = needRestart
  }

  /// The names of the settings a reload applies at once.
  package static var liveSettings: [String] {
    OptionTable.settings.filter { $0.field?.reload == .live }.map(\.name)
  }
}
