/// Which mode a convertible is in, from its sources in order (a manual override, a
/// tablet-mode switch, the hinge), and what that means for the screen under the rotate policy.
///
/// Pure: the daemon feeds it what the switch, the hinge and clients say.
package struct TabletModeState: Equatable, Sendable {
  /// What the tablet-mode switch says: true in tablet mode, nil without a switch.
  package var switchSaysTablet: Bool?
  /// What the hinge says.
  package var hinge = HingeStatus.unavailable
  /// `mode tablet|laptop` from a client; nil is `mode auto`.
  package var override: TabletMode?
  /// The `rotate` policy as configured.
  package var policy: RotatePolicy

  /// Creates a state with no source yet.
  package init(policy: RotatePolicy = .auto, override: TabletMode? = nil) {
    self.policy = policy
    self.override = override == .unknown ? nil : override
  }

  /// The strongest source that says something.
  package var source: ModeSource {
    if override != nil { return .manual }
    if switchSaysTablet != nil { return .tabletSwitch }
    if hinge.available { return .hinge }
    return .none
  }

  /// The mode in force.
  package var mode: TabletMode {
    switch source {
    case .manual: return override ?? .unknown
    case .tabletSwitch: return switchSaysTablet == true ? .tablet : .laptop
    case .hinge: return hinge.mode
    case .none: return .unknown
    }
  }

  /// The policy in force: `auto` resolved by whether any source exists.
  var effectivePolicy: RotatePolicy {
    switch policy {
    case .auto: return source == .none ? .always : .tablet
    case .always, .tablet: return policy
    }
  }

  /// Whether the screen is held `normal`: laptop mode under the tablet policy. An unknown
  /// mode (a switch gone, a hinge that cannot tell) rotates as `always` does.
  package var holdsNormal: Bool { effectivePolicy == .tablet && mode == .laptop }

  /// Whether the mode can change only through events orientd is told of without sampling (a
  /// switch's events, a client's command), so that the display sensor may stop while the
  /// screen is held.
  package var modeNeedsNoSamples: Bool { source == .manual || source == .tabletSwitch }

  /// The text for `info`: `laptop (switch; rotate tablet, from auto)`.
  package var summary: String {
    let policyText =
      policy == .auto ? "rotate \(effectivePolicy.rawValue), from auto" : "rotate \(policy.rawValue)"
    return "\(mode.rawValue) (\(source == .none ? "no source" : "from " + source.rawValue); \(policyText))"
  }
}
