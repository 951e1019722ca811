/// The state a daemon starts with: the allowed set by whichever intent is newest
/// (`AllowedOrigin.choose`), the saved lock if that set still allows it, the saved mode
/// override, and the rotate policy in force.
package struct RestoredState: Sendable {
  /// The whole state to start from.
  package let tracker: OrientationTracker
  /// Where the allowed set came from.
  package let allowedOrigin: AllowedOrigin
  /// What was given up on the way, for the log: a saved lock that the allowed set no longer
  /// holds.
  package let warning: String?

  /// The state from `--allowed` (`commandLine`), the config file's set (`config`), the state
  /// file (`saved`) and the rotate policy.
  package init(
    commandLine: AllowedOrientations?, config: AllowedOrientations?, saved: PersistedState?,
    rotate: RotatePolicy
  ) {
    let (allowed, origin) = AllowedOrigin.choose(commandLine: commandLine, config: config, saved: saved)
    var lock = saved?.lock
    var warning: String?
    if let locked = lock, !allowed.contains(locked) {
      warning = "the saved lock \(locked.name) is not in the allowed set \(allowed.listText); unlocking"
      lock = nil
    }
    tracker = OrientationTracker(
      policy: ScreenPolicy(allowed: allowed, lock: lock),
      mode: TabletModeState(policy: rotate, override: saved?.mode))
    allowedOrigin = origin
    self.warning = warning
  }
}
