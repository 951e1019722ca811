/// Decides the device orientation from gravity samples, with a shake gate,
/// hysteresis, a dead zone and a settle time that a device at rest cuts short.
///
/// A proposal other than the current orientation becomes current once every sample has
/// proposed it for the settle time, or sooner once the device has been still in it for
/// `ClassifierSettings.still` (`MotionWatch`), or has pointed squarely into it (within 22.5
/// degrees of its direction, in the screen's plane for the four screen orientations:
/// `DeviceOrientation.isCentral`) for as long: the settle time is
/// there for a device that only passes through an orientation, and a device that has come to
/// rest is done turning, as is one that has turned well past the boundary (Android proposes a
/// rotation only there, and takes it once it has held 40 ms).
///
/// Samples from a sensor whose steady magnitude is far from 1 g (a wrong scale) are divided
/// by that magnitude before the gate (see `SteadyMagnitude`), so such a sensor still
/// classifies, and shakes are still rejected in proportion. A sensor with no scale at all reads
/// in units nobody knows (raw counts in the hundreds, often): until its steady magnitude is
/// learned, its samples are classified by their direction alone, at once, as iio-sensor-proxy
/// does with angles; only the settle time guards against shakes meanwhile, and the gate takes
/// over, relative to the learned magnitude, once it is known.
///
/// A new screen orientation also waits out Android's posture graces (`PostureWatch`): 500 ms
/// after the device stops lying flat, 300 ms after a swing, 500 ms after a shake; and none is
/// taken while the screen faces down overhead (the overhead lock). Face-up and face-down are
/// not held back: they turn no screen.
///
/// Pure: the caller passes each sample's time, so replays and tests are exact.
package struct OrientationClassifier: Sendable {
  /// The tunables in use.
  package private(set) var settings: ClassifierSettings
  /// The current orientation; nil (undefined) until the first one settles.
  @inlinable
  package var current: DeviceOrientation? { currentStorage }

  @usableFromInline var currentStorage: DeviceOrientation?

  @usableFromInline var pending: DeviceOrientation?
  @usableFromInline var pendingSince = SampleTime.zero
  /// Whether the next sample the gate takes decides the orientation at once (see
  /// `adoptNextProposal`).
  @usableFromInline var adopting = false
  @usableFromInline var minimumSquared: Double
  @usableFromInline var maximumSquared: Double
  @usableFromInline var steady = SteadyMagnitude()
  /// Whether the sensor's scale is unknown: samples go by their direction until `steady` has
  /// learned their magnitude.
  @usableFromInline var scaleUnknown = false
  /// Whether the device is still, judged on the samples as the gate sees them (after any
  /// division, or by direction alone).
  @usableFromInline var motion = MotionWatch()
  /// The time of the last sample, nil before the first.
  @usableFromInline var lastSampleTime: SampleTime?
  /// The time of the last sample the shake gate rejected, nil before any.
  @usableFromInline var lastJolt: SampleTime?
  /// Since when every sample has pointed squarely into the pending orientation
  /// (`DeviceOrientation.isCentral`); nil while the last one did not. Meaningful only while
  /// something is pending: a new pending proposal starts it afresh.
  @usableFromInline var centralSince: SampleTime?
  /// The screen's tilt, sample by sample: lying flat, swings, held overhead.
  @usableFromInline var posture = PostureWatch()
  /// The magnitudes in g the gate accepts.
  @usableFromInline var gate: ClosedRange<Double>

  /// What samples are divided by before the gate, or nil when they are used as they are.
  package var magnitudeDivisor: Double? { steady.divisor }

  /// Whether samples are classified by their direction alone, with no magnitude gate: the
  /// sensor has no scale and its steady magnitude is not learned yet.
  @inlinable
  package var classifiesByDirection: Bool { scaleUnknown && !steady.learned }

  /// The orientation proposed but not yet current: it waits for the settle time. Nil when
  /// the samples propose the current orientation (or were rejected by the gate).
  var pendingOrientation: DeviceOrientation? { pending }

  /// When the pending orientation becomes current, if every sample until then proposes it;
  /// nil when nothing is pending. A source that samples at least once more at this time lets
  /// the settle time decide as soon as it can.
  package var settlesAt: SampleTime? {
    guard pending != nil else { return nil }
    let bySettle = pendingSince + settings.settle
    var at = bySettle
    if let still = settings.still {
      var byStill = max(pendingSince, motion.stillSince ?? pendingSince) + still
      if let centralSince { byStill = min(byStill, centralSince + still) }
      if let lastJolt { byStill = max(byStill, lastJolt + settings.shakeGrace) }
      at = min(bySettle, byStill)
    }
    if pending?.screen != nil, let graceEnds { at = max(at, graceEnds) }
    return at
  }

  /// When the posture graces (`PostureWatch`, and the shake grace) stop holding back a new
  /// screen orientation; nil when none holds one back.
  package var graceEnds: SampleTime? {
    var ends = posture.graceEnds(flat: settings.flatGrace, swing: settings.swingGrace)
    if settings.shakeGrace > .zero, let lastJolt {
      let shakeEnds = lastJolt + settings.shakeGrace
      ends = max(ends ?? shakeEnds, shakeEnds)
    }
    return ends
  }

  /// Whether the overhead lock holds the screen orientation: the screen faces down past 40
  /// degrees, and has not come back within 15 degrees of upright since. A device whose first
  /// orientation is still to come has none to hold.
  package var holdsOverhead: Bool { settings.overheadLock && posture.overhead && currentStorage != nil }

  /// Whether the next sample the gate takes will decide the orientation at once.
  package var isAdopting: Bool { adopting }

  /// Makes the next sample the gate lets through decide the orientation at once, without a
  /// settle time: sampling resumes after a pause, and the orientation held from before may be
  /// stale while someone waits for a current one.
  ///
  /// The proposal is made as for any sample, against the orientation held: inside the
  /// hysteresis band or the dead zone it stays, as it would have had sampling gone on through
  /// the pause, so resuming never turns a device that sits between two orientations. A sample
  /// the gate rejects (the device is shaken) decides nothing, and the next one is tried.
  package mutating func adoptNextProposal() {
    adopting = true
    pending = nil
    // Whatever the samples did before the pause says nothing about the device now.
    motion.reset()
    posture.reset()
    lastJolt = nil
  }

  /// What the classifier made of one sample.
  package enum Verdict: Equatable, Sendable {
    /// Its magnitude in g, after any division, was outside the gate: it was not classified.
    case rejected(magnitude: Double)
    /// It proposed this orientation (nil: undefined, in the dead zone before any).
    case proposed(DeviceOrientation?)
  }

  /// The outcome of one sample.
  package struct Step: Equatable, Sendable {
    /// What the sample was taken as.
    package var verdict: Verdict
    /// Whether `current` changed.
    package var changed: Bool
    /// A change in how samples are divided, at this sample.
    package var magnitude: SteadyMagnitude.Change?

    /// Creates a step.
    @inlinable
    package init(verdict: Verdict, changed: Bool, magnitude: SteadyMagnitude.Change?) {
      self.verdict = verdict
      self.changed = changed
      self.magnitude = magnitude
    }
  }

  /// Creates a classifier whose orientation starts undefined.
  package init(settings: ClassifierSettings = .defaults) {
    self.settings = settings
    (minimumSquared, maximumSquared) = Self.gateBounds(settings)
    gate = Self.gate(settings)
  }

  /// Applies new tunables and keeps the current orientation; a pending change restarts.
  package mutating func update(settings: ClassifierSettings) {
    self.settings = settings
    (minimumSquared, maximumSquared) = Self.gateBounds(settings)
    gate = Self.gate(settings)
    pending = nil
  }

  /// Forgets the steady magnitude learned so far: samples now come from another sensor (or
  /// the same one set up again, perhaps with a corrected scale), which is measured afresh.
  /// Without `scaleKnown` (the sensor has no scale), its samples are classified by their
  /// direction until their magnitude is learned.
  package mutating func forgetSteadyMagnitude(scaleKnown: Bool = true) {
    steady = SteadyMagnitude()
    scaleUnknown = !scaleKnown
    motion.reset()
    posture.reset()
    lastJolt = nil
    // A change the old sensor's samples proposed is not this one's to finish.
    pending = nil
    centralSince = nil
  }

  /// The magnitudes (in g) the gate accepts. A tolerance that is negative or not a number
  /// (which the settings' validation refuses) gives an empty-looking range at 1 g rather than
  /// a trap.
  private static func gate(_ settings: ClassifierSettings) -> ClosedRange<Double> {
    let tolerance = settings.shakeTolerance.isNaN ? 0 : max(0, settings.shakeTolerance)
    return max(0, 1 - tolerance)...(1 + tolerance)
  }

  private static func gateBounds(_ settings: ClassifierSettings) -> (Double, Double) {
    let gate = gate(settings)
    return (gate.lowerBound * gate.lowerBound, gate.upperBound * gate.upperBound)
  }

  /// Whether a sample passes the shake gate (its magnitude is close enough to 1 g), as it
  /// is, without the division by a steady magnitude that `classify` may apply (for `--list`,
  /// which shows a single reading).
  @inlinable
  package func passesShakeGate(_ gravity: Vector3) -> Bool {
    let squared = gravity.magnitudeSquared
    return squared >= minimumSquared && squared <= maximumSquared
  }

  /// The orientation `gravity` proposes, given the current one (hysteresis and dead zone).
  @inlinable
  package func proposal(for gravity: Vector3) -> DeviceOrientation? {
    if let current, current.component(of: gravity) >= settings.threshold - settings.hysteresis {
      return current
    }
    let strongest = Self.strongest(gravity)
    return strongest.component(of: gravity) >= settings.threshold ? strongest : current
  }

  /// The orientation with the largest component; ties prefer upright, then sideways, then flat.
  @inlinable
  static func strongest(_ gravity: Vector3) -> DeviceOrientation {
    let ax = abs(gravity.x)
    let ay = abs(gravity.y)
    let az = abs(gravity.z)
    if ay >= ax && ay >= az { return gravity.y <= 0 ? .normal : .bottomUp }
    if ax >= az { return gravity.x >= 0 ? .leftUp : .rightUp }
    return gravity.z <= 0 ? .faceUp : .faceDown
  }

  /// Feeds one sample taken at `time` and says what became of it.
  @inlinable
  package mutating func classify(_ gravity: Vector3, at time: SampleTime) -> Step {
    var squared = gravity.magnitudeSquared
    let magnitudeChange = steady.add(
      magnitudeSquared: squared, at: time, gate: gate,
      material: max(settings.shakeTolerance, SteadyMagnitude.band))
    lastSampleTime = time
    // The samples the gate rejected before a new steady magnitude were that magnitude, not
    // jolts: no shake grace from them.
    if magnitudeChange != nil { lastJolt = nil }
    var vector = gravity
    if let divisor = steady.divisor {
      let factor = 1 / divisor
      vector = Vector3(gravity.x * factor, gravity.y * factor, gravity.z * factor)
      squared = vector.magnitudeSquared
    } else if classifiesByDirection {
      // No unit to judge a magnitude by: only a reading too small to have a direction is set aside.
      let minimum = SteadyMagnitude.minimumMagnitude
      guard squared >= minimum * minimum else {
        pending = nil
        return Step(
          verdict: .rejected(magnitude: squared.squareRoot()), changed: false, magnitude: magnitudeChange)
      }
      let factor = 1 / squared.squareRoot()
      vector = Vector3(gravity.x * factor, gravity.y * factor, gravity.z * factor)
      motion.add(vector, at: time)
      if let tilt = PostureWatch.tilt(of: vector) { posture.add(tilt: tilt, at: time) }
      return decide(proposal(for: vector), vector, at: time, magnitude: magnitudeChange)
    }
    // A shaken sample moves too: it is far from any resting vector.
    motion.add(vector, at: time)
    guard squared >= minimumSquared && squared <= maximumSquared else {
      lastJolt = time
      pending = nil
      return Step(
        verdict: .rejected(magnitude: squared.squareRoot()), changed: false, magnitude: magnitudeChange)
    }
    // Only samples the gate takes: a jolted sample's direction is not the screen's tilt.
    if let tilt = PostureWatch.tilt(of: vector) { posture.add(tilt: tilt, at: time) }
    return decide(proposal(for: vector), vector, at: time, magnitude: magnitudeChange)
  }

  /// Takes a sample (`vector`, as the gate saw it) that proposed `proposed` at `time`: at once
  /// after `adoptNextProposal`, else once it has held for the settle time.
  @inlinable
  mutating func decide(
    _ proposed: DeviceOrientation?, _ vector: Vector3, at time: SampleTime,
    magnitude magnitudeChange: SteadyMagnitude.Change?
  ) -> Step {
    if adopting {
      adopting = false
      pending = nil
      let changed = proposed != currentStorage
      currentStorage = proposed
      return Step(verdict: .proposed(proposed), changed: changed, magnitude: magnitudeChange)
    }
    return Step(
      verdict: .proposed(proposed), changed: settle(proposed, vector, at: time), magnitude: magnitudeChange)
  }

  /// Makes `proposed` current once it has been proposed for the settle time, or once the
  /// device has been still in it, or squarely in it, for `settings.still`. `vector` is the
  /// sample's; nil when no sample came (`quiet`), and the device is as the last one found it.
  @inlinable
  mutating func settle(_ proposed: DeviceOrientation?, _ vector: Vector3?, at time: SampleTime) -> Bool {
    // Held overhead, a screen orientation the samples point to is not one the reader means.
    guard proposed != current, proposed?.screen == nil || !holdsOverhead else {
      pending = nil
      return false
    }
    if proposed != pending {
      pending = proposed
      pendingSince = time
      centralSince = nil
    }
    if let vector {
      if let proposed, proposed.isCentral(vector) {
        centralSince = centralSince ?? time
      } else {
        centralSince = nil
      }
    }
    guard time - pendingSince >= settings.settle || hasBeenStill(at: time) else {
      return false
    }
    if proposed?.screen != nil, let graceEnds, time < graceEnds { return false }
    currentStorage = proposed
    pending = nil
    return true
  }

  /// Whether the device has been still, or squarely in the pending proposal, for
  /// `settings.still` since the proposal began.
  @inlinable
  func hasBeenStill(at time: SampleTime) -> Bool {
    guard let still = settings.still else { return false }
    if let lastJolt, time - lastJolt < settings.shakeGrace { return false }
    if let centralSince, time - centralSince >= still { return true }
    guard let since = motion.stillSince else { return false }
    return time - max(pendingSince, since) >= still
  }

  /// The sensor has sent no sample since the last one, up to `time`: it reports only when a
  /// value moves (a HID sensor hub with a change sensitivity), so the device is as that
  /// sample found it, and still. Decides a pending change as a sample equal to the last one
  /// at `time` would; returns whether the orientation changed.
  ///
  /// Only for sensors that report on change or at a known cadence, called once that cadence
  /// has passed: a polled sensor's silence means nothing.
  package mutating func quiet(until time: SampleTime) -> Bool {
    guard let pending, !adopting, let last = lastSampleTime, time >= last else { return false }
    return settle(pending, nil, at: time)
  }
}
