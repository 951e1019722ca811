/// The tunables of the orientation classifier, all in g except `settle` and `still`.
package struct ClassifierSettings: Equatable, Sendable {
  /// A component must reach this to propose a new orientation.
  package var threshold: Double
  /// The current orientation holds while its component stays at or above `threshold - hysteresis`.
  package var hysteresis: Double
  /// Samples whose magnitude is outside `[1 - shakeTolerance, 1 + shakeTolerance]` are ignored.
  package var shakeTolerance: Double
  /// How long a new proposal must hold before it becomes current.
  package var settle: Duration
  /// How long the device must be still (`MotionWatch`) in a new proposal, or point squarely
  /// into it (within 22.5 degrees of its direction, in the screen's plane for the screen
  /// orientations: `DeviceOrientation.isCentral`), for it to become current sooner than
  /// `settle`; nil: only `settle` decides.
  ///
  /// The settle time guards against a proposal that a moving device only passes through; a
  /// device that has stopped in the new orientation is done turning, as is one that has turned
  /// well past the boundary, and waiting out the rest of the settle time would only delay the
  /// answer.
  package var still: Duration?
  /// How long after the device stops lying flat (it had lain face-up, within 10 degrees of
  /// level, for a second) no new screen orientation is taken: a tablet picked up from a table
  /// passes through whatever the hand tilts it to first. Zero turns it off.
  package var flatGrace: Duration
  /// How long after a swing (the screen tilted 20 degrees further towards facing up within
  /// 300 ms: swung while carried, or being set down) no new screen orientation is taken. Zero
  /// turns it off.
  package var swingGrace: Duration
  /// How long after a sample the shake gate rejected no new screen orientation is taken: a
  /// shaken or jolted device passes through orientations and may hold one for a few samples
  /// between jolts. Zero turns it off.
  package var shakeGrace: Duration
  /// Whether the screen orientation is held while the screen faces down, held overhead by
  /// someone reading lying on their back or side: from 40 degrees past upright until the
  /// screen is back within 15 degrees of upright.
  package var overheadLock: Bool

  /// The defaults: 0.6 g threshold, 0.1 g hysteresis, 0.4 g shake tolerance, 200 ms settle,
  /// 40 ms still (Android takes a proposal that has held for 40 ms), and Android's posture
  /// graces: 300 ms after a swing, 500 ms after a shake, the overhead lock on; after lying flat
  /// 750 ms, not Android's 500: replayed pick-ups by a side edge (benchmarks/posture.py) gave
  /// 22 false turns in 40 with 500 ms and 1 with 750, for 260 ms more on a pick-up straight
  /// into the orientation read in.
  package static let defaults = ClassifierSettings(
    threshold: 0.6, hysteresis: 0.1, shakeTolerance: 0.4, settle: .milliseconds(200),
    still: .milliseconds(40),
    flatGrace: .milliseconds(750), swingGrace: .milliseconds(300), shakeGrace: .milliseconds(500),
    overheadLock: true
  )

  /// Creates settings; `validate()` reports values that make no sense. The posture graces
  /// left out are off, as they were before they existed, except the shake grace, whose
  /// 500 ms always held back the stillness rule.
  package init(
    threshold: Double, hysteresis: Double, shakeTolerance: Double, settle: Duration, still: Duration? = nil,
    flatGrace: Duration = .zero, swingGrace: Duration = .zero, shakeGrace: Duration = .milliseconds(500),
    overheadLock: Bool = false
  ) {
    self.threshold = threshold
    self.hysteresis = hysteresis
    self.shakeTolerance = shakeTolerance
    self.settle = settle
    self.still = still
    self.flatGrace = flatGrace
    self.swingGrace = swingGrace
    self.shakeGrace = shakeGrace
    self.overheadLock = overheadLock
  }

  /// Throws when a value is out of range, naming the option it belongs to.
  package func validate() throws(ValueError) {
    guard threshold > 0, threshold <= 1 else {
      throw ValueError("threshold must be above 0 and at most 1 g, got \(threshold)")
    }
    guard hysteresis >= 0, hysteresis < threshold else {
      throw ValueError(
        "hysteresis must be at least 0 and below the threshold (\(threshold) g), got \(hysteresis)")
    }
    guard shakeTolerance >= 0, shakeTolerance <= 4 else {
      throw ValueError("shake tolerance must be between 0 and 4 g, got \(shakeTolerance)")
    }
    guard settle >= .zero else { throw ValueError("settle must not be negative") }
    if let still, still < .zero { throw ValueError("still must not be negative") }
    guard flatGrace >= .zero, swingGrace >= .zero, shakeGrace >= .zero else {
      throw ValueError("a posture grace must not be negative")
    }
  }
}
