/// What a hook runs for, as `ORIENTD_EVENT` tells it: a hook that changes the display acts on
/// `orientation` and `mode`, and leaves `suggestion` to hooks that show it.
package enum HookEvent: String, Sendable {
  /// The screen orientation changed (perhaps the mode with it).
  case orientation
  /// The mode changed alone, and held.
  case mode
  /// A rotation was suggested to the locked screen, or the suggestion went.
  case suggestion

  /// The runs that replace each other while they wait for a running hook: the state's (the
  /// latest state is all a display needs) and the suggestions' (the latest suggestion), so
  /// that a suggestion never takes the place of a turn of the screen, nor a turn that of a
  /// suggestion.
  package var coalescing: String { self == .suggestion ? "suggestion" : "state" }

  /// `ORIENTD_EVENT`, and `ORIENTD_SUGGESTION`: the rotation suggested now (`none` without).
  package func variables(suggestion: ScreenOrientation?) -> [(name: String, value: String)] {
    [("ORIENTD_EVENT", rawValue), ("ORIENTD_SUGGESTION", suggestion?.name ?? "none")]
  }
}
