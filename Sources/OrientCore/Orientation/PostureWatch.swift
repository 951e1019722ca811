import Glibc

/// How the screen is tilted, sample by sample, and what that says about the hand holding the
/// device: whether it was just picked up from lying flat, is being swung, or is held overhead
/// by someone reading lying down. These are Android's posture rules (its
/// WindowOrientationListener): a turn proposed in these moments is most often not one the user
/// means, so the classifier waits (`graceEnds`) or holds the orientation (`overhead`).
///
/// The tilt is the screen's elevation: 90 degrees lying face-up, 0 upright, negative facing
/// down (the angle between gravity and the screen's plane, signed by which side faces up).
///
/// Pure: times are the samples' own.
package struct PostureWatch: Sendable {
  /// A tilt at or above this is lying flat (face-up).
  package static let flatTilt = 80.0
  /// How long the tilt must stay flat for the device to count as laid down: a tablet carried
  /// flat for a moment is not one that was lying on a table.
  package static let flatTime = Duration.seconds(1)
  /// A tilt that rises by this much within `swingTime` is a swing: the device is being
  /// swung or set down, moving towards facing up.
  package static let swingAngle = 20.0
  /// The window a swing's rise is looked for in.
  package static let swingTime = Duration.milliseconds(300)
  /// At or below this tilt (the screen facing down, held over someone lying on their back)
  /// the overhead lock turns on.
  package static let overheadEnter = -40.0
  /// At or above this tilt the overhead lock turns off again: the gap between the two keeps a
  /// hand's wobble from turning it on and off.
  package static let overheadExit = -15.0
  /// The most tilts kept for the swing test: one per `historySpacing`, over `swingTime`.
  static let historyCapacity = 32
  /// Samples closer together than this share one history entry (the lowest tilt), so a fast
  /// sensor keeps the history bounded.
  static let historySpacing = Duration.milliseconds(10)

  /// Since when the tilt has been flat without a break; nil while it is not.
  private var flatSince: SampleTime?
  /// The last sample at which the device had been lying flat for `flatTime`; nil before.
  package private(set) var flatAt: SampleTime?
  /// The last sample at which the device was swinging; nil before.
  package private(set) var swingAt: SampleTime?
  /// Whether the device is held overhead, screen down (with `overheadExit`'s hysteresis).
  package private(set) var overhead = false
  /// The tilts of the last `swingTime`, oldest first: (time, lowest tilt in its spacing).
  private var history: [(time: SampleTime, tilt: Double)] = []

  /// A watch that has seen no sample.
  package init() {}

  /// The tilt in degrees of a gravity vector in the corrected frame (face-up reads z = -1 g);
  /// nil for a vector too short to have a direction.
  package static func tilt(of gravity: Vector3) -> Double? {
    let magnitude = gravity.magnitudeSquared.squareRoot()
    guard magnitude > 1e-9, magnitude.isFinite else { return nil }
    let sine = min(1, max(-1, -gravity.z / magnitude))
    return Glibc.asin(sine) * 180 / .pi
  }

  /// Takes the tilt of the sample at `time`.
  package mutating func add(tilt: Double, at time: SampleTime) {
    guard tilt.isFinite else { return }
    if tilt >= Self.flatTilt {
      let since = flatSince ?? time
      flatSince = since
      if time - since >= Self.flatTime { flatAt = time }
    } else {
      flatSince = nil
    }

    // A swing: some tilt of the last `swingTime` lies `swingAngle` or more below this one.
    history.removeAll { time - $0.time > Self.swingTime || $0.time > time }
    if history.contains(where: { $0.tilt + Self.swingAngle <= tilt }) { swingAt = time }
    if let last = history.last, time - last.time < Self.historySpacing {
      history[history.count - 1].tilt = min(last.tilt, tilt)
    } else {
      if history.count == Self.historyCapacity { history.removeFirst() }
      history.append((time, tilt))
    }

    if tilt <= Self.overheadEnter {
      overhead = true
    } else if tilt >= Self.overheadExit {
      overhead = false
    }
  }

  /// When the grace after lying flat and after a swing ends, with the graces given (zero
  /// turns one off); nil when neither holds anything back.
  package func graceEnds(flat flatGrace: Duration, swing swingGrace: Duration) -> SampleTime? {
    var ends: SampleTime?
    if flatGrace > .zero, let flatAt { ends = flatAt + flatGrace }
    if swingGrace > .zero, let swingAt {
      let swingEnds = swingAt + swingGrace
      ends = max(ends ?? swingEnds, swingEnds)
    }
    return ends
  }

  /// Forgets every sample: sampling resumes after a pause, and what the device did before says
  /// nothing about it now. The overhead lock is forgotten too; the next sample sets it again.
  package mutating func reset() {
    self = PostureWatch()
  }
}
