import Testing

@testable import OrientCore

/// `vector` scaled by `factor`, as a sensor with a scale `factor` times too large reads it.
private func scaled(_ vector: Vector3, _ factor: Double) -> Vector3 {
  Vector3(vector.x * factor, vector.y * factor, vector.z * factor)
}

/// Feeds `vectors` 100 ms apart from `start` ms and returns every step.
private func feed(
  _ classifier: inout OrientationClassifier, _ vectors: [Vector3], from start: Int64 = 0
) -> [OrientationClassifier.Step] {
  vectors.enumerated().map { index, vector in
    classifier.classify(vector, at: SampleTime(milliseconds: start + Int64(index) * 100))
  }
}

/// Whether the gate rejected the sample.
private func isRejected(_ step: OrientationClassifier.Step) -> Bool {
  if case .rejected = step.verdict { return true }
  return false
}

@Suite("Classifying samples whose steady magnitude is far from 1 g")
struct SteadyMagnitudeTests {
  @Test("A steady 26 g is rejected for 2 s, then reported once and divided out, and the device classifies")
  func wrongScaleIsDividedAfterTwoSeconds() throws {
    var classifier = OrientationClassifier(settings: settle300)
    let steps = feed(&classifier, Array(repeating: scaled(DeviceOrientation.normal.gravity, 26), count: 30))
    // 0 to 1.9 s: rejected, nothing reported.
    #expect(steps[..<20].allSatisfy { $0.verdict == .rejected(magnitude: 26) && $0.magnitude == nil })
    // At 2.0 s the stretch is steady: reported once, and that sample already proposes normal.
    #expect(steps[20].magnitude == .dividing(magnitude: 26))
    #expect(steps[20].verdict == .proposed(.normal))
    #expect(steps[21...].allSatisfy { $0.magnitude == nil })
    // Settle (300 ms) still applies.
    #expect(steps.firstIndex { $0.changed } == 23)
    #expect(classifier.current == .normal)
    #expect(classifier.magnitudeDivisor == 26)
  }

  @Test("Jolts seconds apart from a sensor that sends only on change never pass for a steady magnitude")
  func sparseSamplesAreNotSteady() {
    var classifier = OrientationClassifier(settings: settle300)
    // Still at 1 g (a change-only sensor sends once), then two 1.9 g jolts 2.1 s apart.
    let upright = DeviceOrientation.normal.gravity
    var steps = [classifier.classify(upright, at: SampleTime(milliseconds: 0))]
    steps.append(classifier.classify(scaled(upright, 1.9), at: SampleTime(milliseconds: 2000)))
    steps.append(classifier.classify(scaled(upright, 1.89), at: SampleTime(milliseconds: 4100)))
    #expect(steps.allSatisfy { $0.magnitude == nil })
    #expect(classifier.magnitudeDivisor == nil)
    // A real 1 g sample that follows still classifies.
    let leftUp = classifier.classify(DeviceOrientation.leftUp.gravity, at: SampleTime(milliseconds: 4200))
    #expect(leftUp.verdict == .proposed(.leftUp))
  }

  @Test("A shake tolerance that validation would refuse gives a gate, not a trap")
  func invalidToleranceDoesNotTrap() {
    for tolerance in [-1.0, .nan] {
      var settings = settle300
      settings.shakeTolerance = tolerance
      var classifier = OrientationClassifier(settings: settings)
      // The gate is at 1 g exactly: a sample of 1 g passes, a shake of 1.3 g does not.
      let still = classifier.classify(DeviceOrientation.leftUp.gravity, at: SampleTime(milliseconds: 0))
      #expect(still.verdict == .proposed(.leftUp), "tolerance \(tolerance)")
      classifier.update(settings: settings)
      let shaken = classifier.classify(
        scaled(DeviceOrientation.normal.gravity, 1.3), at: SampleTime(milliseconds: 100))
      #expect(shaken.verdict != .proposed(.normal), "tolerance \(tolerance): \(shaken.verdict)")
    }
  }

  @Test("Turning the device while its wrong magnitude is measured keeps it steady")
  func turningIsSteady() {
    var classifier = OrientationClassifier(settings: settle300)
    let turning = (0..<25).map { scaled(uprightTilt(degrees: Double($0) * 3.6), 26) }
    let steps = feed(&classifier, turning)
    #expect(steps.compactMap(\.magnitude) == [.dividing(magnitude: 26)])
  }

  @Test("With a 26x scale, turns publish with the usual hysteresis and settle")
  func turnsWithHysteresisAndSettle() throws {
    var classifier = OrientationClassifier(settings: settle300)
    _ = feed(&classifier, Array(repeating: scaled(DeviceOrientation.normal.gravity, 26), count: 25))
    #expect(classifier.current == .normal)
    // Tilting towards left-up: normal holds up to 60 degrees (T - H = 0.5), as at 1 g.
    var time: Int64 = 3000
    var switchedAt: Int?
    for degrees in stride(from: 40, through: 90, by: 1) {
      // Each tilt is held for the settle time, so only hysteresis decides.
      for _ in 0..<4 {
        _ = classifier.classify(
          scaled(uprightTilt(degrees: Double(degrees)), 26), at: SampleTime(milliseconds: time))
        time += 100
      }
      if classifier.current == .leftUp {
        switchedAt = degrees
        break
      }
    }
    #expect((60...61).contains(try #require(switchedAt)))
    // A proposal must hold for 300 ms: bottom-up for 200 ms does not switch.
    _ = feed(
      &classifier, Array(repeating: scaled(DeviceOrientation.bottomUp.gravity, 26), count: 3), from: time)
    #expect(classifier.current == .leftUp)
    _ = feed(
      &classifier, Array(repeating: scaled(DeviceOrientation.bottomUp.gravity, 26), count: 4),
      from: time + 300)
    #expect(classifier.current == .bottomUp)
  }

  @Test("A real shake of a 26x sensor is still rejected and restarts the settle")
  func shakeStillRejected() {
    var classifier = OrientationClassifier(settings: settle300)
    _ = feed(&classifier, Array(repeating: scaled(DeviceOrientation.normal.gravity, 26), count: 25))
    let left = scaled(DeviceOrientation.leftUp.gravity, 26)
    // 1.6 g and 0.3 g shaken: outside [0.6, 1.4] once divided by 26.
    let steps = feed(
      &classifier, [left, left, scaled(DeviceOrientation.leftUp.gravity, 26 * 1.6), left, left, left],
      from: 3000)
    #expect(isRejected(steps[2]))
    #expect(steps.allSatisfy { !$0.changed }, "the shake must restart the settle")
    #expect(classifier.current == .normal)
    let after = feed(&classifier, [left, left, left, left], from: 3600)
    #expect(after.contains { $0.changed })
    #expect(classifier.current == .leftUp)
    #expect(
      isRejected(
        classifier.classify(
          scaled(DeviceOrientation.normal.gravity, 26 * 0.3), at: SampleTime(milliseconds: 4000))))
  }

  @Test("A shake never holds a steady magnitude, so a correct sensor is never divided")
  func shakeIsNotSteady() {
    var classifier = OrientationClassifier(settings: settle300)
    let shaking = (0..<100).map { index in
      scaled(DeviceOrientation.normal.gravity, [1.6, 2.2, 0.4, 1.9][index % 4])
    }
    let steps = feed(&classifier, shaking)
    #expect(steps.allSatisfy { $0.magnitude == nil && !$0.changed })
    #expect(classifier.magnitudeDivisor == nil)
    #expect(classifier.current == nil)
  }

  @Test("A correct sensor, still or tilted within the gate, is never divided nor reported")
  func correctSensorUntouched() {
    var classifier = OrientationClassifier(settings: settle300)
    let samples =
      Array(repeating: DeviceOrientation.normal.gravity, count: 50)
      + Array(repeating: scaled(DeviceOrientation.leftUp.gravity, 1.3), count: 50)
    let steps = feed(&classifier, samples)
    #expect(steps.allSatisfy { $0.magnitude == nil })
    #expect(classifier.magnitudeDivisor == nil)
    #expect(classifier.current == .leftUp)
  }

  @Test("Samples back at 1 g for 2 s stop the division, once, and classify as they are")
  func rightScaleWins() throws {
    var classifier = OrientationClassifier(settings: settle300)
    _ = feed(&classifier, Array(repeating: scaled(DeviceOrientation.normal.gravity, 26), count: 25))
    let steps = feed(&classifier, Array(repeating: DeviceOrientation.leftUp.gravity, count: 30), from: 2500)
    // Divided by 26 they fail the gate until the 1 g stretch is 2 s long.
    #expect(steps[..<20].allSatisfy(isRejected))
    #expect(steps.compactMap(\.magnitude) == [.stoppedDividing(magnitude: 1)])
    #expect(steps[20].magnitude == .stoppedDividing(magnitude: 1))
    #expect(steps[20].verdict == .proposed(.leftUp))
    #expect(classifier.magnitudeDivisor == nil)
    #expect(classifier.current == .leftUp)
  }

  @Test("A steady magnitude that moves a little refines the divisor quietly; a large move is reported again")
  func materialChanges() throws {
    var classifier = OrientationClassifier(settings: settle300)
    var steps = feed(&classifier, Array(repeating: scaled(DeviceOrientation.normal.gravity, 26), count: 25))
    // 28 g is 8% off: passes the band of the 26 g stretch, so the same stretch goes on.
    steps += feed(
      &classifier, Array(repeating: scaled(DeviceOrientation.normal.gravity, 28), count: 25), from: 2500)
    // 10 g is a new situation (a different wrong scale after re-attaching, say).
    steps += feed(
      &classifier, Array(repeating: scaled(DeviceOrientation.normal.gravity, 10), count: 25), from: 5000)
    #expect(steps.compactMap(\.magnitude) == [.dividing(magnitude: 26), .dividing(magnitude: 10)])
    #expect(classifier.magnitudeDivisor == 10)
    // Recovered, then wrong again: reported again.
    steps = feed(&classifier, Array(repeating: DeviceOrientation.normal.gravity, count: 25), from: 7500)
    steps += feed(
      &classifier, Array(repeating: scaled(DeviceOrientation.normal.gravity, 26), count: 25), from: 10_000)
    #expect(steps.compactMap(\.magnitude) == [.stoppedDividing(magnitude: 1), .dividing(magnitude: 26)])
  }

  @Test("A magnitude 15% off a steady stretch starts a new one, which needs 2 s of its own")
  func bandIsRelative() {
    var steady = SteadyMagnitude()
    var changes: [SteadyMagnitude.Change] = []
    for index in 0..<40 {
      // 26 g then 30 g (15% off): the 30 g stretch starts afresh at 2 s and needs 2 s of its own.
      let magnitude = index < 20 ? 26.0 : 30.0
      if let change = steady.add(
        magnitudeSquared: magnitude * magnitude, at: SampleTime(milliseconds: Int64(index) * 100),
        gate: 0.6...1.4, material: 0.4
      ) {
        changes.append(change)
      }
    }
    #expect(changes.isEmpty)
    #expect(
      steady.add(magnitudeSquared: 900, at: SampleTime(milliseconds: 4000), gate: 0.6...1.4, material: 0.4)
        == .dividing(magnitude: 30))
  }

  @Test("A sensor that reads zero is reported once and never divided")
  func nearZero() {
    var classifier = OrientationClassifier(settings: settle300)
    let steps = feed(&classifier, Array(repeating: Vector3.zero, count: 50))
    #expect(steps.compactMap(\.magnitude) == [.nearZero(magnitude: 0)])
    #expect(classifier.magnitudeDivisor == nil)
    #expect(classifier.current == nil)
  }

  @Test("A scale too small (a driver reporting g, not m/s²) is divided out too")
  func tooSmall() {
    var classifier = OrientationClassifier(settings: settle300)
    let steps = feed(
      &classifier, Array(repeating: scaled(DeviceOrientation.faceUp.gravity, 0.102), count: 25))
    let changes = steps.compactMap(\.magnitude)
    #expect(changes.count == 1)
    if case .dividing(let magnitude) = changes.first {
      #expect(abs(magnitude - 0.102) < 1e-9)
    } else {
      Issue.record("expected dividing, got \(changes)")
    }
    #expect(classifier.current == .faceUp)
  }

  @Test("Significant digits format scales and magnitudes")
  func significantDigits() {
    #expect(DecimalFormatting.significant(0.995982 / 25.99986, digits: 5) == "0.038307")
    #expect(DecimalFormatting.significant(26, digits: 4) == "26.00")
    #expect(DecimalFormatting.significant(1, digits: 4) == "1.000")
    #expect(DecimalFormatting.significant(0.102, digits: 4) == "0.1020")
    #expect(DecimalFormatting.significant(0.99996, digits: 4) == "1.000")
    #expect(DecimalFormatting.significant(9.9996, digits: 4) == "10.00")
    #expect(DecimalFormatting.significant(12345.6, digits: 3) == "12346")
    #expect(DecimalFormatting.significant(0, digits: 3) == "0.00")
  }
}
