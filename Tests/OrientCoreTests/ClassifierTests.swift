import Testing

@testable import OrientCore

@Suite("Classifying device orientation")
struct ClassifierTests {
  @Test(
    "Each of the six gravity directions classifies as its orientation",
    arguments: DeviceOrientation.allCases)
  func sixDirections(orientation: DeviceOrientation) {
    #expect(classify([orientation.gravity]) == [orientation])
  }

  @Test("The orientation starts undefined")
  func startsUndefined() {
    #expect(OrientationClassifier().current == nil)
  }

  @Test("Tilting from normal towards left-up switches near 60 degrees, and back near 30 degrees")
  func hysteresisBand() throws {
    let forward = (0...90).map { uprightTilt(degrees: Double($0)) }
    let there = classify(forward)
    // normal holds while cos(angle) >= T - H = 0.5, that is up to 60 degrees.
    let firstLeftUp = try #require(there.firstIndex(of: .leftUp))
    #expect((60...61).contains(firstLeftUp))
    #expect(there[..<firstLeftUp].allSatisfy { $0 == .normal })
    #expect(there[firstLeftUp...].allSatisfy { $0 == .leftUp })

    var classifier = OrientationClassifier(settings: instant)
    _ = classifier.classify(DeviceOrientation.leftUp.gravity, at: .zero).changed
    var switchedBackAt: Int?
    for degrees in stride(from: 90, through: 0, by: -1) {
      _ =
        classifier.classify(
          uprightTilt(degrees: Double(degrees)), at: SampleTime(milliseconds: Int64(100 - degrees))
        ).changed
      if classifier.current == .normal, switchedBackAt == nil { switchedBackAt = degrees }
    }
    // left-up holds while sin(angle) >= 0.5, that is down to 30 degrees.
    #expect((29...30).contains(try #require(switchedBackAt)))
  }

  @Test("45 degrees never flips once an orientation is held")
  func noFlappingAtFortyFive() {
    let wobble = (0..<200).map { uprightTilt(degrees: 45 + ($0 % 2 == 0 ? 4 : -4)) }
    let results = classify([DeviceOrientation.normal.gravity] + wobble)
    #expect(results.allSatisfy { $0 == .normal })
  }

  @Test("In the dead zone, where no component reaches the threshold, the previous orientation stays")
  func deadZone() {
    let tilted = Vector3(0.55, -0.55, -0.55)  // |v| = 0.95: passes the gate, no component >= 0.6
    #expect(classify([tilted]) == [nil])
    #expect(classify([DeviceOrientation.rightUp.gravity, tilted]) == [.rightUp, .rightUp])
    #expect(classify([DeviceOrientation.faceUp.gravity, tilted]) == [.faceUp, .faceUp])
  }

  @Test("Samples far from 1 g are not classified")
  func shakeGate() {
    #expect(classify([Vector3(1.5, 0, 0)]) == [nil])
    #expect(classify([Vector3(0.5, 0, 0)]) == [nil])
    #expect(classify([Vector3(1.39, 0, 0)]) == [.leftUp])
    #expect(classify([Vector3(0.61, 0, 0)]) == [.leftUp])
    #expect(classify([DeviceOrientation.normal.gravity, Vector3(2, 0, 0)]) == [.normal, .normal])
  }

  @Test("A change settles only after every gated sample has proposed it for the settle time")
  func settleTiming() {
    var classifier = OrientationClassifier(settings: settle300)
    var changed = false
    changed = classifier.classify(DeviceOrientation.normal.gravity, at: SampleTime(milliseconds: 0)).changed
    #expect(changed == false)
    changed = classifier.classify(DeviceOrientation.normal.gravity, at: SampleTime(milliseconds: 299)).changed
    #expect(changed == false)
    changed = classifier.classify(DeviceOrientation.normal.gravity, at: SampleTime(milliseconds: 300)).changed
    #expect(changed == true)
    #expect(classifier.current == .normal)

    changed =
      classifier.classify(DeviceOrientation.leftUp.gravity, at: SampleTime(milliseconds: 1000)).changed

    #expect(changed == false)
    changed =
      classifier.classify(DeviceOrientation.leftUp.gravity, at: SampleTime(milliseconds: 1200)).changed
    #expect(changed == false)
    // One sample back to normal cancels the pending change; the clock starts again.
    changed =
      classifier.classify(DeviceOrientation.normal.gravity, at: SampleTime(milliseconds: 1250)).changed
    #expect(changed == false)
    changed =
      classifier.classify(DeviceOrientation.leftUp.gravity, at: SampleTime(milliseconds: 1300)).changed
    #expect(changed == false)
    changed =
      classifier.classify(DeviceOrientation.leftUp.gravity, at: SampleTime(milliseconds: 1599)).changed
    #expect(changed == false)
    #expect(classifier.current == .normal)
    changed =
      classifier.classify(DeviceOrientation.leftUp.gravity, at: SampleTime(milliseconds: 1600)).changed
    #expect(changed == true)
    #expect(classifier.current == .leftUp)
  }

  @Test("A shaken sample restarts a pending settle")
  func shakeRestartsSettle() {
    var settings = settle300
    settings.shakeGrace = .zero
    var classifier = OrientationClassifier(settings: settings)
    _ = classifier.classify(DeviceOrientation.leftUp.gravity, at: SampleTime(milliseconds: 0)).changed
    _ = classifier.classify(Vector3(0, 0, 3), at: SampleTime(milliseconds: 200)).changed
    _ = classifier.classify(DeviceOrientation.leftUp.gravity, at: SampleTime(milliseconds: 300)).changed
    #expect(classifier.current == nil)
    _ = classifier.classify(DeviceOrientation.leftUp.gravity, at: SampleTime(milliseconds: 599)).changed
    #expect(classifier.current == nil)
    _ = classifier.classify(DeviceOrientation.leftUp.gravity, at: SampleTime(milliseconds: 600)).changed
    #expect(classifier.current == .leftUp)
  }

  @Test("After a shaken sample no screen orientation is taken for the shake grace, settled or not")
  func shakeGraceHoldsSettle() {
    var classifier = OrientationClassifier(settings: settle300)
    _ = classifier.classify(Vector3(0, 0, 3), at: SampleTime(milliseconds: 200))
    for time in stride(from: 300, through: 650, by: 50) {
      _ = classifier.classify(DeviceOrientation.leftUp.gravity, at: SampleTime(milliseconds: Int64(time)))
    }
    // Settled at 600 ms, but the grace runs until 700 ms.
    #expect(classifier.current == nil)
    #expect(classifier.settlesAt == SampleTime(milliseconds: 700))
    _ = classifier.classify(DeviceOrientation.leftUp.gravity, at: SampleTime(milliseconds: 700))
    #expect(classifier.current == .leftUp)
  }

  @Test("Face-up is not held by the shake grace: it turns no screen")
  func shakeGraceSparesFaceUp() {
    var classifier = OrientationClassifier(settings: settle300)
    _ = classifier.classify(Vector3(0, 0, 3), at: SampleTime(milliseconds: 200))
    for time in stride(from: 300, through: 600, by: 50) {
      _ = classifier.classify(DeviceOrientation.faceUp.gravity, at: SampleTime(milliseconds: Int64(time)))
    }
    #expect(classifier.current == .faceUp)
  }

  @Test("A different proposal during settle restarts the clock for the new one")
  func proposalSwitchRestarts() {
    var classifier = OrientationClassifier(settings: settle300)
    _ = classifier.classify(DeviceOrientation.leftUp.gravity, at: SampleTime(milliseconds: 0)).changed
    _ = classifier.classify(DeviceOrientation.rightUp.gravity, at: SampleTime(milliseconds: 200)).changed
    _ = classifier.classify(DeviceOrientation.rightUp.gravity, at: SampleTime(milliseconds: 400)).changed
    #expect(classifier.current == nil)
    _ = classifier.classify(DeviceOrientation.rightUp.gravity, at: SampleTime(milliseconds: 500)).changed
    #expect(classifier.current == .rightUp)
  }

  @Test("With settle 0 a proposal becomes current at once")
  func settleZero() {
    var classifier = OrientationClassifier(settings: instant)
    let changed = classifier.classify(DeviceOrientation.faceDown.gravity, at: .zero).changed
    #expect(changed)
    #expect(classifier.current == .faceDown)
  }

  @Test("Lying flat is face-up, and stays so while picked up until the face component drops below 0.5 g")
  func flatThenPickedUp() {
    let angles: [Double] = [90, 45, 35, 31, 29]
    let results = classify(angles.map { backwardTilt(degrees: $0) })
    #expect(results == [.faceUp, .faceUp, .faceUp, .faceUp, .normal])
  }

  @Test("New settings keep the current orientation")
  func updateSettings() {
    var classifier = OrientationClassifier(settings: instant)
    _ = classifier.classify(DeviceOrientation.normal.gravity, at: .zero).changed
    classifier.update(
      settings: ClassifierSettings(threshold: 0.9, hysteresis: 0, shakeTolerance: 0.1, settle: .zero))
    #expect(classifier.current == .normal)
    // 62 degrees: normal's 0.47 g is below the old band (0.5 g) and left-up's 0.88 g above the
    // old threshold, so the old settings would turn to left-up; at the new threshold (0.9 g)
    // it is in the dead zone, and normal stays.
    _ = classifier.classify(uprightTilt(degrees: 62), at: SampleTime(milliseconds: 1)).changed
    #expect(classifier.current == .normal)
    #expect(classifier.settings.threshold == 0.9)
  }

  @Test(
    "Settings out of range are rejected",
    arguments: [
      ClassifierSettings(threshold: 0, hysteresis: 0, shakeTolerance: 0.4, settle: .zero),
      ClassifierSettings(threshold: 1.2, hysteresis: 0, shakeTolerance: 0.4, settle: .zero),
      ClassifierSettings(threshold: 0.6, hysteresis: 0.6, shakeTolerance: 0.4, settle: .zero),
      ClassifierSettings(threshold: 0.6, hysteresis: 0.1, shakeTolerance: 5, settle: .zero),
      ClassifierSettings(threshold: 0.6, hysteresis: 0.1, shakeTolerance: 0.4, settle: .microseconds(-1)),
    ])
  func invalidSettings(settings: ClassifierSettings) {
    #expect(throws: ValueError.self) { try settings.validate() }
  }

  @Test("The defaults are 0.6 g, 0.1 g, 0.4 g, 200 ms settle and 40 ms still, and valid")
  func defaults() throws {
    let defaults = ClassifierSettings.defaults
    #expect(defaults.threshold == 0.6)
    #expect(defaults.hysteresis == 0.1)
    #expect(defaults.shakeTolerance == 0.4)
    #expect(defaults.settle == .milliseconds(200))
    #expect(defaults.still == .milliseconds(40))
    try defaults.validate()
  }
}
