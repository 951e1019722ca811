import Testing

@testable import OrientCore

/// A sensor with no scale: `vector` in g as its raw counts read it, 256 to the g.
private func counts(_ vector: Vector3) -> Vector3 {
  Vector3(vector.x * 256, vector.y * 256, vector.z * 256)
}

/// Feeds `vectors` 100 ms apart from `start` ms and returns every step.
private func feed(
  _ classifier: inout OrientationClassifier, _ vectors: [Vector3], from start: Int64 = 0
) -> [OrientationClassifier.Step] {
  vectors.enumerated().map { index, vector in
    classifier.classify(vector, at: SampleTime(milliseconds: start + Int64(index) * 100))
  }
}

/// A classifier for a sensor that has no scale.
private func unscaled(_ settings: ClassifierSettings) -> OrientationClassifier {
  var classifier = OrientationClassifier(settings: settings)
  classifier.forgetSteadyMagnitude(scaleKnown: false)
  return classifier
}

@Suite("Classifying a sensor that has no scale: by direction until its magnitude is learned")
struct UnscaledSensorTests {
  @Test("Raw counts in the hundreds classify by direction at once, as a short recording turns")
  func classifiesAtOnce() {
    var classifier = unscaled(instant)
    #expect(classifier.classifiesByDirection)
    let recording = [DeviceOrientation.normal, .leftUp, .normal, .rightUp, .bottomUp].map {
      counts($0.gravity)
    }
    let steps = feed(&classifier, recording)
    #expect(steps.map(\.verdict) == [.normal, .leftUp, .normal, .rightUp, .bottomUp].map { .proposed($0) })
    #expect(steps.allSatisfy { $0.changed })
    // A scale known to be right (or one that is wrong): the same counts fail the gate until learned.
    var scaled = OrientationClassifier(settings: instant)
    #expect(feed(&scaled, recording).allSatisfy { $0.verdict == .rejected(magnitude: 256) })
    #expect(scaled.current == nil)
  }

  @Test("The settle time still applies while the classifier goes by direction")
  func settleStillApplies() {
    var classifier = unscaled(settle300)
    let steps = feed(&classifier, Array(repeating: counts(DeviceOrientation.leftUp.gravity), count: 5))
    #expect(steps.map(\.changed) == [false, false, false, true, false])
  }

  @Test("A reading too small to have a direction is set aside; a zero reading too")
  func tooSmallForDirection() {
    var classifier = unscaled(instant)
    let steps = feed(&classifier, [Vector3(0, 0, 0), Vector3(0.001, 0, 0), Vector3(2, 0, 0)])
    #expect(steps[0].verdict == .rejected(magnitude: 0))
    #expect(steps[1].verdict == .rejected(magnitude: 0.001))
    #expect(steps[2].verdict == .proposed(.leftUp))
  }

  @Test("Once the steady magnitude is learned, the gate rejects shakes relative to it")
  func gateRelativeToLearnedMagnitude() {
    var classifier = unscaled(settle300)
    let normal = counts(DeviceOrientation.normal.gravity)
    let learning = feed(&classifier, Array(repeating: normal, count: 25))
    #expect(learning[20].magnitude == .dividing(magnitude: 256))
    #expect(!classifier.classifiesByDirection)
    #expect(classifier.current == .normal)
    // A shake towards left-up at 1.6 times the learned magnitude, longer than the settle time.
    let shake = Vector3(256 * 1.6, 0, 0)
    let shaken = feed(&classifier, Array(repeating: shake, count: 5), from: 2500)
    #expect(shaken.allSatisfy { $0.verdict == .rejected(magnitude: 1.6) && !$0.changed })
    #expect(classifier.current == .normal)
    // Held from 3.0 s: the settle time would take it at 3.3 s; the shake grace holds it until
    // 500 ms after the last jolt (2.9 s).
    let turned = feed(
      &classifier, Array(repeating: counts(DeviceOrientation.leftUp.gravity), count: 5), from: 3000)
    #expect(turned.firstIndex { $0.changed } == 4)
    #expect(classifier.current == .leftUp)
  }

  @Test("A sensor whose counts turn out to be about 1 g leaves direction alone for the plain gate")
  func learnedInsideGate() {
    var classifier = unscaled(instant)
    _ = feed(&classifier, Array(repeating: Vector3(0, -1.02, 0), count: 21))
    #expect(!classifier.classifiesByDirection)
    #expect(classifier.magnitudeDivisor == nil)
    #expect(
      classifier.classify(Vector3(2, 0, 0), at: SampleTime(milliseconds: 2200)).verdict
        == .rejected(magnitude: 2))
  }

  @Test(
    "Measured afresh: a sensor with a scale after one without goes through the gate from its first sample")
  func forgetWithScaleKnown() {
    var classifier = unscaled(instant)
    _ = feed(&classifier, [counts(DeviceOrientation.normal.gravity)])
    classifier.forgetSteadyMagnitude()
    #expect(!classifier.classifiesByDirection)
    #expect(
      classifier.classify(counts(DeviceOrientation.leftUp.gravity), at: SampleTime(milliseconds: 500)).verdict
        == .rejected(magnitude: 256))
  }
}
