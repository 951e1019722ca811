import Testing

@testable import OrientCore

@Suite("What the classifier has pending, and adopting a sample at once after a pause")
struct PendingAndAdoptionTests {
  /// A classifier with a 300 ms settle holding `orientation` since time 0.
  private func holding(_ orientation: DeviceOrientation) -> OrientationClassifier {
    var classifier = OrientationClassifier(settings: settle300)
    _ = classifier.classify(orientation.gravity, at: SampleTime(milliseconds: 0)).changed
    _ = classifier.classify(orientation.gravity, at: SampleTime(milliseconds: 300)).changed
    return classifier
  }

  @Test(
    "A proposal other than the current orientation is pending until its settle time, and says when that is")
  func pendingUntilSettled() {
    var classifier = holding(.normal)
    #expect(classifier.pendingOrientation == nil)
    #expect(classifier.settlesAt == nil)
    _ = classifier.classify(DeviceOrientation.leftUp.gravity, at: SampleTime(milliseconds: 1000)).changed
    #expect(classifier.pendingOrientation == .leftUp)
    #expect(classifier.settlesAt == SampleTime(milliseconds: 1300))
    _ = classifier.classify(DeviceOrientation.leftUp.gravity, at: SampleTime(milliseconds: 1050)).changed
    #expect(classifier.settlesAt == SampleTime(milliseconds: 1300), "a later agreeing sample moves nothing")
    let changed1 = classifier.classify(DeviceOrientation.leftUp.gravity, at: SampleTime(milliseconds: 1300))
      .changed
    #expect(changed1)
    #expect(classifier.settlesAt == nil)
    #expect(classifier.pendingOrientation == nil)
  }

  @Test("A pending change ends when the samples go back or the gate rejects one")
  func pendingEnds() {
    var classifier = holding(.normal)
    _ = classifier.classify(DeviceOrientation.leftUp.gravity, at: SampleTime(milliseconds: 1000)).changed
    _ = classifier.classify(DeviceOrientation.normal.gravity, at: SampleTime(milliseconds: 1050)).changed
    #expect(classifier.settlesAt == nil)
    _ = classifier.classify(DeviceOrientation.leftUp.gravity, at: SampleTime(milliseconds: 1100)).changed
    #expect(classifier.settlesAt == SampleTime(milliseconds: 1400))
    _ = classifier.classify(Vector3(2, 0, 0), at: SampleTime(milliseconds: 1150)).changed
    #expect(classifier.settlesAt == nil)
  }

  @Test("At start the first proposal is pending too: the undefined orientation waits for its settle time")
  func pendingAtStart() {
    var classifier = OrientationClassifier(settings: settle300)
    _ = classifier.classify(DeviceOrientation.normal.gravity, at: SampleTime(milliseconds: 20)).changed
    #expect(classifier.current == nil)
    #expect(classifier.settlesAt == SampleTime(milliseconds: 320))
  }

  @Test(
    "After adoptNextProposal the next sample's orientation is current at once, and later ones settle as usual"
  )
  func adoptsAtOnce() {
    var classifier = holding(.normal)
    classifier.adoptNextProposal()
    #expect(classifier.isAdopting)
    let step = classifier.classify(DeviceOrientation.leftUp.gravity, at: SampleTime(milliseconds: 5000))
    #expect(step.changed)
    #expect(classifier.current == .leftUp)
    #expect(!classifier.isAdopting)
    #expect(classifier.settlesAt == nil)
    // Only the one sample: the next change waits for its settle time again.
    let changed2 = classifier.classify(DeviceOrientation.rightUp.gravity, at: SampleTime(milliseconds: 5050))
      .changed
    #expect(!changed2)
    #expect(classifier.current == .leftUp)
    #expect(classifier.settlesAt == SampleTime(milliseconds: 5350))
  }

  @Test("Adopting drops a change that was pending before the pause")
  func adoptionDropsPending() {
    var classifier = holding(.normal)
    _ = classifier.classify(DeviceOrientation.leftUp.gravity, at: SampleTime(milliseconds: 1000)).changed
    classifier.adoptNextProposal()
    #expect(classifier.settlesAt == nil)
    let changed3 = classifier.classify(DeviceOrientation.normal.gravity, at: SampleTime(milliseconds: 9000))
      .changed
    #expect(!changed3)
    #expect(classifier.current == .normal)
    #expect(!classifier.isAdopting)
  }

  @Test(
    "Adopting keeps the held orientation inside its hysteresis band, as sampling through the pause would have"
  )
  func adoptionKeepsHysteresis() {
    var classifier = holding(.leftUp)
    classifier.adoptNextProposal()
    // 35 degrees from normal: left-up's 0.57 g is inside its band (>= 0.5 g), normal's 0.82 g above the threshold.
    let step = classifier.classify(uprightTilt(degrees: 35), at: SampleTime(milliseconds: 5000))
    #expect(!step.changed)
    #expect(classifier.current == .leftUp)
    #expect(!classifier.isAdopting, "the sample decided, though nothing changed")
  }

  @Test("A sample the gate rejects does not end the adoption; the next one it takes decides")
  func adoptionWaitsForTheGate() {
    var classifier = holding(.normal)
    classifier.adoptNextProposal()
    let changed4 = classifier.classify(Vector3(0, 0, 2.5), at: SampleTime(milliseconds: 5000)).changed
    #expect(!changed4)
    #expect(classifier.isAdopting)
    let changed5 = classifier.classify(DeviceOrientation.faceUp.gravity, at: SampleTime(milliseconds: 5020))
      .changed
    #expect(changed5)
    #expect(classifier.current == .faceUp)
  }
}

@Suite("Trying a silent buffer again when polling sees the device move")
struct BufferRetryTriggerTests {
  @Test("The first reading is no movement; a reading 0.1 g or more from the previous one is")
  func movement() {
    var trigger = BufferRetryTrigger()
    let tries6 = trigger.shouldTry(
      gravity: Vector3(0, -1, 0), changePending: false, at: SampleTime(milliseconds: 0))
    #expect(!tries6)
    let tries7 = trigger.shouldTry(
      gravity: Vector3(0.05, -1, 0.04), changePending: false, at: SampleTime(milliseconds: 2000))
    #expect(!tries7)
    let tries8 = trigger.shouldTry(
      gravity: Vector3(0.3, -0.95, 0), changePending: false, at: SampleTime(milliseconds: 4000))
    #expect(tries8)
  }

  @Test("A pending change is a trigger even when each reading moved little")
  func pendingChange() {
    var trigger = BufferRetryTrigger()
    _ = trigger.shouldTry(
      gravity: Vector3(0.5, -0.85, 0), changePending: false, at: SampleTime(milliseconds: 0))
    let tries9 = trigger.shouldTry(
      gravity: Vector3(0.52, -0.84, 0), changePending: true, at: SampleTime(milliseconds: 200))
    #expect(tries9)
  }

  @Test(
    "Tries are a second apart at first, doubling after each that movement started, counting those the backoff made"
  )
  func spacing() {
    var trigger = BufferRetryTrigger()
    _ = trigger.shouldTry(gravity: Vector3(0, -1, 0), changePending: false, at: SampleTime(milliseconds: 0))
    let tries10 = trigger.shouldTry(
      gravity: Vector3(1, 0, 0), changePending: false, at: SampleTime(milliseconds: 100))
    #expect(tries10)
    // The next one, 2 s later at the earliest.
    let tries11 = trigger.shouldTry(
      gravity: Vector3(0, -1, 0), changePending: false, at: SampleTime(milliseconds: 2099))
    #expect(!tries11)
    let tries12 = trigger.shouldTry(
      gravity: Vector3(1, 0, 0), changePending: false, at: SampleTime(milliseconds: 2100))
    #expect(tries12)
    // Then 4 s after the last try, the backoff timer's counting.
    trigger.tried(at: SampleTime(milliseconds: 3000))
    let tries13 = trigger.shouldTry(
      gravity: Vector3(0, -1, 0), changePending: true, at: SampleTime(milliseconds: 6999))
    #expect(!tries13)
    let tries14 = trigger.shouldTry(
      gravity: Vector3(1, 0, 0), changePending: true, at: SampleTime(milliseconds: 7000))
    #expect(tries14)
  }

  @Test("The spacing stops growing at a minute")
  func spacingLimit() {
    var trigger = BufferRetryTrigger()
    var time: Int64 = 0
    var tries: [Int64] = []
    _ = trigger.shouldTry(gravity: Vector3(0, -1, 0), changePending: false, at: SampleTime(milliseconds: 0))
    // The device turns every 500 ms for 10 minutes.
    for step in 1...1200 {
      time = Int64(step) * 500
      if trigger.shouldTry(
        gravity: step % 2 == 0 ? Vector3(0, -1, 0) : Vector3(1, 0, 0), changePending: false,
        at: SampleTime(milliseconds: time))
      {
        tries.append(time)
      }
    }
    let gaps = zip(tries, tries.dropFirst()).map { $1 - $0 }
    // The first try comes at the first movement; each after it waits twice as long.
    #expect(tries.first == 500)
    #expect(gaps.prefix(5) == [2000, 4000, 8000, 16000, 32000])
    #expect(gaps.count > 8 && gaps.dropFirst(5).allSatisfy { $0 == 60000 }, "\(gaps)")
  }
}
