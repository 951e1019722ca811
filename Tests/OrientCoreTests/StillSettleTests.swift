import Testing

@testable import OrientCore

/// Milliseconds as a sample time.
private func at(_ milliseconds: Int64) -> SampleTime { SampleTime(milliseconds: milliseconds) }

/// Feeds one sample; whether it changed the orientation.
private func feed(_ classifier: inout OrientationClassifier, _ gravity: Vector3, _ time: SampleTime) -> Bool {
  classifier.classify(gravity, at: time).changed
}

/// Silence until `time`; whether it changed the orientation.
private func quiet(_ classifier: inout OrientationClassifier, _ time: SampleTime) -> Bool {
  classifier.quiet(until: time)
}

/// The defaults: 200 ms settle, 40 ms still.
private let defaults = ClassifierSettings.defaults

/// A classifier holding normal, from samples at 0 and 300 ms.
private func holdingNormal(_ settings: ClassifierSettings = defaults) -> OrientationClassifier {
  var classifier = OrientationClassifier(settings: settings)
  _ = classifier.classify(DeviceOrientation.normal.gravity, at: at(0))
  _ = classifier.classify(DeviceOrientation.normal.gravity, at: at(300))
  return classifier
}

@Suite("A device at rest in a new orientation is taken sooner than the settle time")
struct StillSettleTests {
  @Test("A step to left-up seen at a poll is taken once three samples 40 ms apart agree and are still")
  func stepIsTakenWhenStill() {
    var classifier = holdingNormal()
    #expect(!feed(&classifier, DeviceOrientation.leftUp.gravity, at(1000)))
    #expect(classifier.settlesAt == at(1040))
    #expect(!feed(&classifier, DeviceOrientation.leftUp.gravity, at(1020)))
    #expect(feed(&classifier, DeviceOrientation.leftUp.gravity, at(1040)))
    #expect(classifier.current == .leftUp)
  }

  @Test(
    "A proposal made while the device still turns, short of squarely in, waits until the device stops, or for the settle time"
  )
  func movingWaitsForSettle() {
    var classifier = holdingNormal()
    // Swinging between 61 and 66 degrees every 20 ms (each sample moves): left-up is proposed
    // at once, and the device stays short of 67.5 degrees, where left-up's central zone begins.
    var changedAt: Int64?
    for (index, degrees) in [61.0, 66, 61, 66, 61, 66].enumerated() where changedAt == nil {
      let time = 1000 + 20 * Int64(index)
      if classifier.classify(uprightTilt(degrees: degrees), at: at(time)).changed { changedAt = time }
    }
    // 100 ms: the settle time has not passed, and the device never rested.
    #expect(changedAt == nil)
    // It rests at 66 from the last sample (1100 ms): taken 40 ms later.
    var restedAt: Int64?
    var time: Int64 = 1120
    while restedAt == nil, time < 2000 {
      if classifier.classify(uprightTilt(degrees: 66), at: at(time)).changed { restedAt = time }
      time += 20
    }
    #expect(restedAt == 1140)
  }

  @Test("A device that keeps moving in the new proposal, short of squarely in, is taken at the settle time")
  func settleStillBounds() {
    var classifier = holdingNormal()
    var time: Int64 = 1000
    var changedAt: Int64?
    // Wobbling between 61 and 66 degrees, never still, never within 22.5 degrees of left-up.
    for step in 0..<20 where changedAt == nil {
      if classifier.classify(uprightTilt(degrees: step % 2 == 0 ? 61 : 66), at: at(time)).changed {
        changedAt = time
      }
      time += 20
    }
    #expect(changedAt == 1200)
  }

  @Test("A turn that points squarely into the new orientation is taken 40 ms later, though it still moves")
  func centralIsTakenMoving() {
    var classifier = holdingNormal()
    // Turning on at 4 degrees every 20 ms from 62 degrees: 70 degrees (at 1040 ms) is the first
    // sample within 22.5 degrees of left-up.
    var time: Int64 = 1000
    var degrees = 62.0
    var changedAt: Int64?
    while degrees <= 90, changedAt == nil {
      if classifier.classify(uprightTilt(degrees: degrees), at: at(time)).changed { changedAt = time }
      // After the sample at 74 degrees (1060 ms), stillness alone would wait until 1100.
      if changedAt == nil, time == 1060 { #expect(classifier.settlesAt == at(1080)) }
      time += 20
      degrees += 4
    }
    #expect(changedAt == 1080)
    // Wobbling between 70 and 80 degrees, never still, is taken the same way.
    var wobbling = holdingNormal()
    var wobbleTakenAt: Int64?
    for step in 0..<20 where wobbleTakenAt == nil {
      let tilt = uprightTilt(degrees: step % 2 == 0 ? 70 : 80)
      if wobbling.classify(tilt, at: at(1000 + 20 * Int64(step))).changed {
        wobbleTakenAt = 1000 + 20 * Int64(step)
      }
    }
    #expect(wobbleTakenAt == 1040)
  }

  @Test(
    "A sample outside the central zone starts its 40 ms again; without still, only the settle time decides")
  func centralRestarts() {
    var classifier = holdingNormal()
    var takenAt: Int64?
    // 70, then 64 (left-up still proposed, but not squarely), then 70, 72, 74...
    for (index, degrees) in [70.0, 64, 70, 72, 74, 76, 78].enumerated() where takenAt == nil {
      let time = 1000 + 20 * Int64(index)
      if classifier.classify(uprightTilt(degrees: degrees), at: at(time)).changed { takenAt = time }
    }
    #expect(takenAt == 1080)

    var settings = defaults
    settings.still = nil
    var settleOnly = holdingNormal(settings)
    takenAt = nil
    for step in 0..<20 where takenAt == nil {
      let time = 1000 + 20 * Int64(step)
      if settleOnly.classify(uprightTilt(degrees: step % 2 == 0 ? 70 : 80), at: at(time)).changed {
        takenAt = time
      }
    }
    #expect(takenAt == 1200)
  }

  @Test("A jolt the shake gate rejects holds every new screen orientation for 500 ms, settled or central")
  func joltHoldsCentral() {
    var classifier = holdingNormal()
    _ = classifier.classify(Vector3(1.8, 0, 0), at: at(1000))
    var takenAt: Int64?
    var time: Int64 = 1020
    while takenAt == nil, time < 2000 {
      if feed(&classifier, uprightTilt(degrees: time % 40 == 0 ? 75 : 85), at(time)) { takenAt = time }
      time += 20
    }
    // Squarely in and moving from 1020 on: the settle time would take it at 1220; the shake
    // grace holds it until 500 ms after the jolt.
    #expect(takenAt == 1500)
  }

  @Test("Still before the proposal does not count: the stillness is measured from the proposal on")
  func stillnessStartsWithProposal() {
    var classifier = holdingNormal()
    // The device rests at 70 degrees; a new setting drops what was pending, the proposal starts again.
    _ = classifier.classify(uprightTilt(degrees: 70), at: at(1000))
    classifier.update(settings: defaults)
    #expect(!feed(&classifier, uprightTilt(degrees: 70), at(1500)))
    #expect(classifier.settlesAt == at(1540))
    #expect(feed(&classifier, uprightTilt(degrees: 70), at(1540)))
  }

  @Test("Without still, only the settle time decides, as before")
  func stillOff() {
    var settings = defaults
    settings.still = nil
    var classifier = holdingNormal(settings)
    _ = classifier.classify(DeviceOrientation.leftUp.gravity, at: at(1000))
    #expect(classifier.settlesAt == at(1200))
    #expect(!feed(&classifier, DeviceOrientation.leftUp.gravity, at(1100)))
    #expect(feed(&classifier, DeviceOrientation.leftUp.gravity, at(1200)))
  }

  @Test("A still time longer than the settle time changes nothing")
  func stillLongerThanSettle() {
    var settings = defaults
    settings.still = .milliseconds(500)
    var classifier = holdingNormal(settings)
    _ = classifier.classify(DeviceOrientation.leftUp.gravity, at: at(1000))
    #expect(classifier.settlesAt == at(1200))
  }

  @Test("0 flaps near 45 degrees with noise: the hysteresis holds, whatever the stillness")
  func noFlapsNearFortyFive() {
    var classifier = holdingNormal()
    var flips = 0
    for step in 0..<400 {
      // 45 degrees with a degree of noise, some stretches perfectly still.
      let noise = step % 50 < 25 ? Double((step * 7) % 5 - 2) * 0.5 : 0
      if classifier.classify(uprightTilt(degrees: 45 + noise), at: at(1000 + 20 * Int64(step))).changed {
        flips += 1
      }
    }
    #expect(flips == 0)
    #expect(classifier.current == .normal)
  }

  @Test("A shake is movement: a shaken device passing through left-up is never still in it")
  func shakeIsNeverStill() {
    var classifier = holdingNormal()
    var changed = false
    // Bursts through left-up 40 ms long, each sample a different strength, between samples near normal.
    let burst = [Vector3(0.8, -0.3, 0.1), Vector3(1.2, -0.2, 0), Vector3(0.9, -0.4, 0.2)]
    var time: Int64 = 1000
    for round in 0..<10 {
      for reading in burst {
        changed = changed || classifier.classify(reading, at: at(time)).changed
        time += 20
      }
      changed = changed || classifier.classify(uprightTilt(degrees: Double(round % 3)), at: at(time)).changed
      time += 20
    }
    #expect(!changed)
    #expect(classifier.current == .normal)
  }

  @Test(
    "A shake that holds left-up still for 60 ms between jolts turns nothing until 500 ms after the last jolt")
  func shakeHoldingAnOrientation() {
    var classifier = holdingNormal()
    var changed = false
    var time: Int64 = 1000
    for _ in 0..<10 {
      // Two jolts the gate rejects, then left-up held for three samples (60 ms), as a
      // shaking hand may pass through it.
      for reading in [
        Vector3(1.8, 0, 0), Vector3(0, 1.7, 0.3), DeviceOrientation.leftUp.gravity,
        DeviceOrientation.leftUp.gravity, DeviceOrientation.leftUp.gravity, DeviceOrientation.leftUp.gravity,
      ] {
        changed = changed || feed(&classifier, reading, at(time))
        time += 20
      }
    }
    #expect(!changed)
    #expect(classifier.current == .normal)
    // Held in left-up after the last jolt (2100 ms), from 2120 on: the settle time would take
    // it 200 ms later; the shake grace waits until 500 ms after the jolt.
    var takenAt: Int64?
    while takenAt == nil, time < 3000 {
      if feed(&classifier, DeviceOrientation.leftUp.gravity, at(time)) { takenAt = time }
      time += 20
    }
    #expect(takenAt == 2600)
  }

  @Test("Face-up and face-down are taken the same way")
  func flat() {
    var classifier = holdingNormal()
    _ = classifier.classify(DeviceOrientation.faceUp.gravity, at: at(1000))
    _ = classifier.classify(DeviceOrientation.faceUp.gravity, at: at(1020))
    #expect(feed(&classifier, DeviceOrientation.faceUp.gravity, at(1040)))
    #expect(classifier.current == .faceUp)
    _ = classifier.classify(DeviceOrientation.faceDown.gravity, at: at(2000))
    #expect(feed(&classifier, DeviceOrientation.faceDown.gravity, at(2040)))
    #expect(classifier.current == .faceDown)
  }
}

@Suite("A sensor that reports only on change decides in silence")
struct QuietSettleTests {
  @Test("The last sample of a turn proposes left-up; with no sample after it, left-up is taken 40 ms later")
  func quietDecides() {
    var classifier = holdingNormal()
    // Short of left-up's central zone (67.5 degrees), so stillness decides.
    _ = classifier.classify(uprightTilt(degrees: 62), at: at(1000))
    _ = classifier.classify(uprightTilt(degrees: 66), at: at(1020))
    #expect(classifier.settlesAt == at(1060))
    #expect(!quiet(&classifier, at(1050)))
    #expect(quiet(&classifier, at(1060)))
    #expect(classifier.current == .leftUp)
    #expect(classifier.settlesAt == nil)
  }

  @Test("A turn that ended squarely in left-up is taken in silence 40 ms after its first central sample")
  func quietDecidesCentral() {
    var classifier = holdingNormal()
    _ = classifier.classify(uprightTilt(degrees: 70), at: at(1000))
    _ = classifier.classify(uprightTilt(degrees: 80), at: at(1020))
    // Still since 1020 would give 1060; squarely in since 1000 gives 1040.
    #expect(classifier.settlesAt == at(1040))
    #expect(!quiet(&classifier, at(1030)))
    #expect(quiet(&classifier, at(1040)))
    #expect(classifier.current == .leftUp)
  }

  @Test("Silence decides nothing when nothing is pending, before any sample, or while adopting")
  func quietWithoutPending() {
    var fresh = OrientationClassifier()
    #expect(!quiet(&fresh, at(5000)))
    var classifier = holdingNormal()
    #expect(!quiet(&classifier, at(5000)))
    _ = classifier.classify(DeviceOrientation.leftUp.gravity, at: at(6000))
    classifier.adoptNextProposal()
    #expect(!quiet(&classifier, at(7000)))
    #expect(classifier.current == .normal)
  }

  @Test("Without still, silence decides at the settle time")
  func quietAtSettle() {
    var settings = defaults
    settings.still = nil
    var classifier = holdingNormal(settings)
    _ = classifier.classify(DeviceOrientation.leftUp.gravity, at: at(1000))
    #expect(!quiet(&classifier, at(1150)))
    #expect(quiet(&classifier, at(1200)))
  }
}

@Suite("An orientation's central zone: within 22.5 degrees of its direction")
struct CentralZoneTests {
  @Test("In the screen's plane the zone begins at 67.5 degrees of a quarter turn, whichever way")
  func quarterTurn() {
    #expect(!DeviceOrientation.leftUp.isCentral(uprightTilt(degrees: 67)))
    #expect(DeviceOrientation.leftUp.isCentral(uprightTilt(degrees: 68)))
    #expect(DeviceOrientation.leftUp.isCentral(uprightTilt(degrees: 112)))
    #expect(!DeviceOrientation.leftUp.isCentral(uprightTilt(degrees: 113)))
    #expect(DeviceOrientation.rightUp.isCentral(uprightTilt(degrees: -70)))
    #expect(DeviceOrientation.normal.isCentral(uprightTilt(degrees: 22)))
    #expect(!DeviceOrientation.normal.isCentral(uprightTilt(degrees: 23)))
    #expect(DeviceOrientation.bottomUp.isCentral(uprightTilt(degrees: 180)))
    #expect(!DeviceOrientation.leftUp.isCentral(uprightTilt(degrees: -90)))
  }

  @Test("A tablet held tilted back counts by its direction in the screen's plane; flat ones from the normal")
  func tiltedAndFlat() {
    // Left-up, tilted 50 degrees back: 0.64 g in the plane, all of it along x.
    #expect(DeviceOrientation.leftUp.isCentral(Vector3(0.64, 0, -0.77)))
    #expect(!DeviceOrientation.leftUp.isCentral(Vector3(0.64, -0.3, -0.7)))
    #expect(DeviceOrientation.faceUp.isCentral(backwardTilt(degrees: 70)))
    #expect(!DeviceOrientation.faceUp.isCentral(backwardTilt(degrees: 67)))
    #expect(DeviceOrientation.faceDown.isCentral(Vector3(0.1, 0.1, 1)))
    #expect(!DeviceOrientation.faceDown.isCentral(Vector3(0.1, 0.1, -1)))
  }
}
