/// The mode from the hinge angle, following ChromeOS's tablet-mode controller: tablet from
/// 200 degrees, laptop again at 160 or less (no flapping in between); angles under 20 or over
/// 340 (a closed lid and one folded back read alike) count only once they held 2 s, and
/// then the lid switch, else the last angle that could be told, says which it is; a hinge
/// held near vertical, or two sensors whose magnitudes differ (the device is moving), give no
/// angle worth using. Timed by the samples, without a clock.
package struct HingeModeDetector: Equatable, Sendable {
  /// The figures, ChromeOS's by default.
  package struct Settings: Equatable, Sendable {
    var enterTabletDegrees = 200.0
    var leaveTabletDegrees = 160.0
    /// Angles outside this range are the unstable ones.
    var stableDegrees = 20.0...340.0
    var unstableHold = Duration.seconds(2)
    /// Gravity along the hinge (g) from which the angle is ignored.
    var verticalHingeG = 0.7
    /// The largest difference of the two sensors' magnitudes (g) for a usable pair.
    var magnitudeMismatchG = 0.1
    /// A published angle moves only by at least this many degrees.
    var publishStepDegrees = 5

    package init() {}

    /// The mode an angle (degrees) the hinge can be told at gives, after `current`: tablet from
    /// `enterTabletDegrees`, laptop at `leaveTabletDegrees` or less; in the band between the
    /// mode holds, and with none yet it is a laptop below flat and a tablet from there. The
    /// hinge sensor's angle goes through the same thresholds.
    package func mode(at angle: Double, after current: TabletMode) -> TabletMode {
      if angle >= enterTabletDegrees { return .tablet }
      if angle <= leaveTabletDegrees { return .laptop }
      guard current == .unknown else { return current }
      return angle < 180 ? .laptop : .tablet
    }
  }

  /// Why a pair of readings was not used.
  package enum Ignored: Equatable, Sendable {
    /// Gravity lies (nearly) along the hinge: the angle is noise.
    case verticalHinge
    /// The magnitudes differ: the device is moving.
    case moving
  }

  /// What one pair of readings did.
  package struct Step: Equatable, Sendable {
    /// Why the pair was ignored, or nil if it was used.
    package var ignored: Ignored?
    /// Whether `mode` changed.
    package var modeChanged = false
    /// A new angle to publish (rounded to a degree), when it moved far enough.
    package var angle: Int?
  }

  package let settings: Settings
  package private(set) var mode = TabletMode.unknown
  /// The angle last published.
  package private(set) var publishedAngle: Int?
  /// The last angle inside the stable range: it tells a closed lid from one folded back.
  private var lastStableAngle: Double?
  private var unstableSince: SampleTime?

  package init(settings: Settings = Settings()) { self.settings = settings }

  /// Takes one pair of readings (g, corrected frames) taken at `time`; `lidClosed` is the lid
  /// switch, nil without one.
  package mutating func update(lid: Vector3, base: Vector3, at time: SampleTime, lidClosed: Bool?) -> Step {
    let before = mode
    var step = decide(lid: lid, base: base, at: time, lidClosed: lidClosed)
    step.modeChanged = mode != before
    return step
  }

  private mutating func decide(lid: Vector3, base: Vector3, at time: SampleTime, lidClosed: Bool?) -> Step {
    var step = Step()
    if lidClosed == true {
      // A closed lid is a laptop put away, whatever the sensors say.
      unstableSince = nil
      mode = .laptop
      return step
    }
    guard abs(lid.magnitude - base.magnitude) <= settings.magnitudeMismatchG else {
      step.ignored = .moving
      return step
    }
    guard HingeAngle.alongHinge(lid: lid, base: base) < settings.verticalHingeG,
      let angle = HingeAngle.degrees(lid: lid, base: base)
    else {
      step.ignored = .verticalHinge
      return step
    }
    if settings.stableDegrees.contains(angle) {
      unstableSince = nil
      lastStableAngle = angle
      mode = settings.mode(at: angle, after: mode)
      step.angle = roundedIfMoved(angle)
      return step
    }
    let since = unstableSince ?? time
    unstableSince = since
    guard time - since >= settings.unstableHold else { return step }
    // Held long enough: folded back when the lid switch says open or the last angle that could
    // be told was past flat; closed otherwise.
    let foldedBack: Bool
    if lidClosed == false {
      foldedBack = true
    } else if let lastStableAngle {
      foldedBack = lastStableAngle > 180
    } else {
      return step
    }
    mode = foldedBack ? .tablet : .laptop
    // 0 and 360 read alike: the angle published says which it is (a lid cannot pass either).
    let told = foldedBack ? (angle < 180 ? 360 : angle) : (angle > 180 ? 0 : angle)
    step.angle = roundedIfMoved(told)
    return step
  }

  /// The angle to publish, rounded, when it moved at least `publishStepDegrees`.
  private mutating func roundedIfMoved(_ angle: Double) -> Int? {
    let rounded = Int(angle.rounded())
    if let publishedAngle, abs(rounded - publishedAngle) < settings.publishStepDegrees { return nil }
    publishedAngle = rounded
    return rounded
  }
}
