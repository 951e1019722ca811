/// The daemon's whole orientation state: the device orientation, the screen policy, the
/// sensor status, the convertible's mode, and the rotation suggested to a locked screen.
///
/// The device orientation comes from the classifier of the sensor that drives it, wherever
/// that runs; the tracker only takes its changes. Every input returns the changes it caused,
/// in publication order.
package struct OrientationTracker: Sendable {
  /// The screen policy (lock, allowed set, screen orientation).
  package private(set) var policy: ScreenPolicy
  /// Whether a sensor is delivering samples.
  private(set) var sensorOnline = false

  /// The mode, its sources and the rotate policy.
  package private(set) var mode: TabletModeState

  /// The rotation suggested to a locked screen, and the one the device may be holding toward
  /// a suggestion. Every input that changes what the device offers the screen tells it.
  package private(set) var suggestion = RotationSuggestion()

  /// Creates a tracker with an undefined device orientation, `policy` and `mode`.
  package init(policy: ScreenPolicy = ScreenPolicy(), mode: TabletModeState = TabletModeState()) {
    self.policy = policy
    self.mode = mode
    _ = self.policy.hold(mode.holdsNormal)
  }

  /// The current device orientation.
  package private(set) var device: DeviceOrientation?

  /// The current screen orientation.
  package var orientation: ScreenOrientation? { policy.orientation }

  /// The full state as changes, in protocol order: sensor, device, orientation, lock, allowed,
  /// mode, and the hinge where there is one.
  package var snapshot: [StateChange] {
    [
      .sensor(online: sensorOnline), .device(device), .orientation(orientation),
      .lock(policy.lock), .allowed(policy.allowed), .mode(mode.mode),
    ] + (mode.hasHinge ? [.hinge(mode.hingeAngle)] : [])
  }

  /// Takes a new device orientation, at `time`; its change comes before the screen change it
  /// causes, then a suggestion it ends (a new one waits for its hold: `advanceSuggestion`).
  package mutating func setDevice(_ newDevice: DeviceOrientation?, at time: SampleTime) -> [StateChange] {
    guard newDevice != device else { return [] }
    device = newDevice
    let changes = [.device(newDevice)] + policy.deviceChanged(to: newDevice)
    return changes + suggestion.deviceOffers(policy.suggestion(for: device), at: time)
  }

  /// When `advanceSuggestion(to:)` must be called next, if anything waits.
  package var suggestionDeadline: SampleTime? { suggestion.deadline }

  /// Time has come to `time`: a suggestion the device has held long enough is made, and one
  /// whose time is up goes.
  package mutating func advanceSuggestion(to time: SampleTime) -> [StateChange] {
    suggestion.advance(to: time)
  }

  /// Applies new suggestion settings; returns `suggestion none` when they turn a suggestion off.
  package mutating func configureSuggestions(_ settings: RotationSuggestion.Settings) -> [StateChange] {
    suggestion.configure(settings)
  }

  /// Records whether the sensor is delivering samples.
  package mutating func setSensor(online: Bool) -> [StateChange] {
    guard online != sensorOnline else { return [] }
    sensorOnline = online
    return [.sensor(online: online)]
  }

  /// Changes what the mode's sources say (or the rotate policy) and returns what that changed:
  /// the hinge angle, the mode, then the screen orientation it holds or releases.
  package mutating func updateMode(_ update: (inout TabletModeState) -> Void) -> [StateChange] {
    let before = mode
    update(&mode)
    var changes: [StateChange] = []
    if mode.hingeAngle != before.hingeAngle { changes.append(.hinge(mode.hingeAngle)) }
    if mode.mode != before.mode { changes.append(.mode(mode.mode)) }
    changes += policy.hold(mode.holdsNormal)
    return changes + suggestion.screenOffers(policy.suggestion(for: device))
  }

  /// Runs a screen-policy command and returns what it changed, ending with the suggestion it
  /// ends (the screen unlocked, or locked where the device is).
  package mutating func apply<E: Error>(
    _ command: (inout ScreenPolicy) throws(E) -> [StateChange]
  ) throws(E) -> [StateChange] {
    let changes = try command(&policy)
    return changes + suggestion.screenOffers(policy.suggestion(for: device))
  }
}
