/// Which mode a convertible is in, from its sources in order (a manual override, a
/// tablet-mode switch, the hinge sensor, the hinge of two accelerometers), and what that means
/// for the screen under the rotate policy.
///
/// The sources are cross-checked where one measures what another guesses. A hinge sensor
/// measures the hinge; a firmware tablet-mode switch may fire on other signs (some fire when a
/// laptop stands on its side). So while a hinge sensor reads a laptop's angle (its mode from
/// the thresholds is laptop), a switch's "tablet" is not trusted: the mode is the hinge
/// sensor's. The other way round, a switch that says laptop while the hinge sensor reads a
/// tablet's angle is kept: the input stack follows the switch too (libinput keeps the
/// keyboard and touchpad on), and the screen then agrees with the keyboard the user has.
/// The angle of two accelerometers overrules nothing: it is not measured when the hinge is
/// near vertical (a laptop on its side), and what it last said may be old.
///
/// Pure: the daemon feeds it what the switch, the hinges and clients say.
package struct TabletModeState: Equatable, Sendable {
  /// What the tablet-mode switch says: true in tablet mode, nil without a switch.
  package var switchSaysTablet: Bool?
  /// What the hinge of the two accelerometers says.
  package var hinge = HingeStatus.unavailable
  /// What the hinge sensor says: available while one is found and read, its mode from its
  /// angle through the two-accelerometer hinge's thresholds (`readHingeSensor`).
  package var hingeSensor = HingeStatus.unavailable
  /// `mode tablet|laptop` from a client; nil is `mode auto`.
  package var override: TabletMode?
  /// The `rotate` policy as configured.
  package var policy: RotatePolicy

  /// The thresholds both hinges share (`HingeModeDetector`'s).
  private static let thresholds = HingeModeDetector.Settings()

  /// Creates a state with no source yet.
  package init(policy: RotatePolicy = .auto, override: TabletMode? = nil) {
    self.policy = policy
    self.override = override == .unknown ? nil : override
  }

  /// A hinge sensor was found (true) or went away (false). Found, it is a source with no
  /// angle yet.
  package mutating func setHingeSensor(present: Bool) {
    guard present != hingeSensor.available else { return }
    hingeSensor = present ? HingeStatus(available: true) : .unavailable
  }

  /// The hinge sensor read `degrees` (whole degrees, 0 closed to 360 folded back): the mode
  /// follows through the thresholds, from the mode it gave before. The angle clients see moves
  /// as two accelerometers' does, by at least `publishStepDegrees` (a sensor that reports each
  /// degree of a lid being opened makes a few lines, not one a degree), and whenever the mode
  /// changes, so that it shows the angle the mode turned at.
  package mutating func readHingeSensor(degrees: Int) {
    guard hingeSensor.available else { return }
    let mode = Self.thresholds.mode(at: Double(degrees), after: hingeSensor.mode)
    var angle = hingeSensor.angle ?? degrees
    if mode != hingeSensor.mode || abs(degrees - angle) >= Self.thresholds.publishStepDegrees {
      angle = degrees
    }
    hingeSensor = HingeStatus(available: true, mode: mode, angle: angle)
  }

  /// The hinge sensor is present but not read now: its angle and mode are unknown.
  package mutating func hingeSensorStopped() {
    guard hingeSensor.available else { return }
    hingeSensor = HingeStatus(available: true)
  }

  /// Whether the switch says tablet while the hinge sensor reads a laptop's angle: the
  /// switch is not trusted, and the hinge sensor gives the mode.
  package var switchOverruled: Bool {
    switchSaysTablet == true && hingeSensor.available && hingeSensor.mode == .laptop
  }

  /// Whether the switch says laptop while the hinge sensor reads a tablet's angle: the switch
  /// is kept.
  package var switchDisputed: Bool {
    switchSaysTablet == false && hingeSensor.available && hingeSensor.mode == .tablet
  }

  /// The strongest source that says something.
  package var source: ModeSource {
    if override != nil { return .manual }
    if switchSaysTablet != nil, !switchOverruled { return .tabletSwitch }
    if hingeSensor.available { return .hingeSensor }
    if hinge.available { return .hinge }
    return .none
  }

  /// The mode in force.
  package var mode: TabletMode {
    switch source {
    case .manual: return override ?? .unknown
    case .tabletSwitch: return switchSaysTablet == true ? .tablet : .laptop
    case .hingeSensor: return hingeSensor.mode
    case .hinge: return hinge.mode
    case .none: return .unknown
    }
  }

  /// Whether there is a hinge whose angle clients see (the `hinge` key): a hinge sensor, or
  /// two accelerometers paired, or an angle one of them gave last.
  package var hasHinge: Bool {
    hingeSensor.available || hinge.available || hinge.angle != nil
  }

  /// The hinge angle clients see: the hinge sensor's where there is one (it is preferred), else
  /// the two accelerometers'.
  package var hingeAngle: Int? { hingeSensor.available ? hingeSensor.angle : hinge.angle }

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

  /// Whether the mode can change only through what orientd hears without the accelerometers'
  /// samples (a switch's events, a client's command, the hinge sensor read on its own), so
  /// that the display sensor may stop while the screen is held.
  package var modeNeedsNoSamples: Bool { source != .hinge && source != .none }

  /// The text for `info`: `laptop (switch; rotate tablet, from auto)`, and where the sources
  /// disagree, what was made of it: `laptop (from hinge sensor at 172 degrees; switch says
  /// tablet, not trusted: the hinge reads a laptop's angle; rotate tablet, from auto)`.
  package var summary: String {
    let policyText =
      policy == .auto ? "rotate \(effectivePolicy.rawValue), from auto" : "rotate \(policy.rawValue)"
    let angle = hingeSensor.angle.map { " at \($0) degrees" } ?? ""
    var parts = [
      source == .none ? "no source" : "from " + source.rawValue + (source == .hingeSensor ? angle : "")
    ]
    if switchOverruled {
      parts.append("switch says tablet, not trusted: the hinge reads a laptop's angle")
    } else if switchDisputed {
      parts.append("hinge sensor says tablet\(angle), the switch's laptop is kept")
    }
    parts.append(policyText)
    return "\(mode.rawValue) (\(parts.joined(separator: "; ")))"
  }

  /// What to log when the cross-check of the switch and the hinge sensor changed from
  /// `before`: once when a switch's tablet stops being trusted, once when a switch's laptop is
  /// kept against the hinge sensor. Nothing while it holds, however the angle moves.
  package func crossCheckNotes(from before: TabletModeState) -> [LogNote] {
    let angle = hingeSensor.angle.map { "\($0) degrees" } ?? "an unknown angle"
    if switchOverruled, !before.switchOverruled {
      return [
        .warning(
          "tablet-mode switch says tablet while the hinge sensor reads \(angle), a laptop's angle "
            + "(some switches fire when a laptop stands on its side): not trusted while the hinge reads so; "
            + "the mode is laptop")
      ]
    }
    if switchDisputed, !before.switchDisputed {
      return [
        .info(
          "tablet-mode switch says laptop while the hinge sensor reads \(angle), a tablet's angle: "
            + "the switch is kept (the keyboard follows it too)")
      ]
    }
    return []
  }
}
