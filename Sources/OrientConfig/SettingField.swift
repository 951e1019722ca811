/// Which part of `DaemonOptions` a setting sets, and whether reloading the config file
/// (SIGHUP) applies a new value at once or only a restart does.
///
/// Kept in the option table beside each setting, so that what a reload does cannot drift
/// from the list of settings.
struct SettingField: Sendable {
  /// What a reload does with a new value.
  enum Reload: Sendable {
    /// Applied at once, to clients connected or not.
    case live
    /// Named in the log as needing a restart; the running value stays.
    case restart
  }

  let reload: Reload
  /// Whether the setting differs between two sets of options.
  let differs: @Sendable (DaemonOptions, DaemonOptions) -> Bool
  /// Copies the setting from the second set of options into the first.
  let copy: @Sendable (inout DaemonOptions, DaemonOptions) -> Void

  /// A setting held in `path`, applied by a reload at once.
  static func live<Value: Equatable & Sendable>(_ path: WritableKeyPath<DaemonOptions, Value> & Sendable)
    -> SettingField
  {
    SettingField(reload: .live, path)
  }

  /// A setting held in `path` that only a restart applies.
  static func restart<Value: Equatable & Sendable>(_ path: WritableKeyPath<DaemonOptions, Value> & Sendable)
    -> SettingField
  {
    SettingField(reload: .restart, path)
  }

  private init<Value: Equatable & Sendable>(
    reload: Reload, _ path: WritableKeyPath<DaemonOptions, Value> & Sendable
  ) {
    self.reload = reload
    differs = { $0[keyPath: path] != $1[keyPath: path] }
    copy = { $0[keyPath: path] = $1[keyPath: path] }
  }

  /// The allowed set: the value in force and the config file's own value (which the state
  /// file records) travel together, and a change of the file's value is what counts.
  static let allowed = SettingField(
    reload: .live, differs: { $0.configAllowed != $1.configAllowed },
    copy: { options, new in
      options.allowed = new.allowed
      options.configAllowed = new.configAllowed
    })

  private init(
    reload: Reload, differs: @escaping @Sendable (DaemonOptions, DaemonOptions) -> Bool,
    copy: @escaping @Sendable (inout DaemonOptions, DaemonOptions) -> Void
  ) {
    self.reload = reload
    self.differs = differs
    self.copy = copy
  }
}
