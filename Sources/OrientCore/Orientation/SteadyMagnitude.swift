/// Finds the magnitude samples hold while it is steady, and decides what the classifier divides
/// samples by before its magnitude gate.
///
/// A sensor whose scale is wrong (26 times too large, say) reads a steady magnitude far from
/// 1 g: every sample would fail the gate, and the orientation would stay undefined. Its
/// magnitude stays the same whether the device lies still or turns, since turning changes
/// only the direction; so steadiness is judged on the magnitude alone, and a device may turn
/// while its wrong magnitude is being measured. A real shake changes the magnitude from one
/// sample to the next, so it never makes a steady stretch, and once samples are divided by the
/// steady magnitude the gate still rejects shakes in proportion.
///
/// A stretch counts as steady while every sample's magnitude stays within about `band`
/// (relative) of the stretch's root mean square, and samples keep coming: a gap longer than
/// `maximumGapMicroseconds` starts a new stretch, so two jolts seconds apart from a sensor that
/// sends only on change never pass for a steady magnitude (a stretch that decides has at least
/// five samples). Once a stretch has lasted `steadyMicroseconds`, that magnitude decides, once
/// per stretch:
/// - inside the gate: samples are used as they are (any division stops: the scale is right);
/// - outside the gate: samples are divided by it;
/// - near zero: no direction can be taken from samples; nothing is divided.
///
/// Pure: time comes from the samples.
package struct SteadyMagnitude: Sendable {
  /// What changed in how samples are divided; each is reported once, when it happens.
  package enum Change: Equatable, Sendable {
    /// Samples held `magnitude` g, outside the gate, for `steadyMicroseconds`: they are
    /// divided by it from now on (the first time, or after a change as large as the gate).
    case dividing(magnitude: Double)
    /// Samples held `magnitude` g, inside the gate: they are no longer divided.
    case stoppedDividing(magnitude: Double)
    /// Samples held `magnitude` g, too close to zero to have a direction.
    case nearZero(magnitude: Double)
  }

  /// How long the magnitude must stay steady before it counts.
  package static let steadyTime = Duration.seconds(2)
  /// About how far (relative to the stretch's root mean square) a magnitude may be and still
  /// be steady. Well above sensor noise, well below the default gate of 40%.
  package static let band = 0.1
  /// Below this many g, a steady magnitude has no usable direction (a sensor that reads zero).
  package static let minimumMagnitude = 0.01
  /// The longest silence between two samples of one stretch.
  package static let maximumGap = Duration.milliseconds(500)

  /// What samples are divided by before the gate, or nil when they are used as they are.
  @inlinable
  package var divisor: Double? { divisorStorage }

  /// Whether a steady stretch has decided what samples are divided by (even when it decided,
  /// without a word, that they are right as they are).
  @inlinable
  package var learned: Bool { learnedStorage }

  // Inlinable, and free of square roots and divisions while a stretch goes on: the
  // classifier runs this for every sample.
  @usableFromInline var divisorStorage: Double?
  @usableFromInline var stretchStart = SampleTime.zero
  @usableFromInline var lastTime = SampleTime.zero
  @usableFromInline var stretchSumOfSquares = 0.0
  @usableFromInline var stretchCount = 0.0
  @usableFromInline var stretchDecided = false
  @usableFromInline var reportedNearZero = false
  @usableFromInline var learnedStorage = false

  /// `band` for squared magnitudes: (1 + band)² - 1, which also covers 1 - (1 - band)².
  @usableFromInline static let squaredBand = (1 + band) * (1 + band) - 1

  /// Starts with samples used as they are.
  package init() {}

  /// Takes a sample's squared magnitude in g² at `time`; `gate` is the range of magnitudes
  /// (in g) the classifier accepts, and `material` how far (relative) a new steady magnitude
  /// must be from the divisor in use to be reported again. Returns what changed, if anything.
  @inlinable
  package mutating func add(
    magnitudeSquared squared: Double, at time: SampleTime, gate: ClosedRange<Double>, material: Double
  ) -> Change? {
    guard squared.isFinite else {
      stretchCount = 0
      return nil
    }
    // |m² - mean of m²| within the band, multiplied out by the count. The small absolute slack
    // lets a sensor that reads exactly zero make a stretch too.
    let slack = Self.minimumMagnitude * Self.minimumMagnitude
    defer { lastTime = time }
    if stretchCount > 0, time >= lastTime,
      time - lastTime <= Self.maximumGap,
      abs(squared * stretchCount - stretchSumOfSquares) <= Self.squaredBand
        * (stretchSumOfSquares + slack * stretchCount)
    {
      stretchSumOfSquares += squared
      stretchCount += 1
    } else {
      // A new stretch starts here (also after a silence, or when time went back).
      stretchStart = time
      stretchSumOfSquares = squared
      stretchCount = 1
      stretchDecided = false
    }
    guard !stretchDecided, time - stretchStart >= Self.steadyTime else {
      return nil
    }
    stretchDecided = true
    return decide(steady: (stretchSumOfSquares / stretchCount).squareRoot(), gate: gate, material: material)
  }

  @inlinable
  mutating func decide(steady: Double, gate: ClosedRange<Double>, material: Double) -> Change? {
    learnedStorage = true
    if steady < Self.minimumMagnitude {
      guard !reportedNearZero else { return nil }
      reportedNearZero = true
      return .nearZero(magnitude: steady)
    }
    reportedNearZero = false
    if gate.contains(steady) {
      guard divisorStorage != nil else { return nil }
      divisorStorage = nil
      return .stoppedDividing(magnitude: steady)
    }
    let previous = divisorStorage
    // Small drifts (temperature, a slightly different pose) refine the divisor quietly.
    divisorStorage = steady
    if let previous, abs(steady / previous - 1) <= material { return nil }
    return .dividing(magnitude: steady)
  }
}
