import Glibc
import Testing

@testable import OrientCore

private func at(_ milliseconds: Int64) -> SampleTime { SampleTime(milliseconds: milliseconds) }

/// Gravity for a device turned `roll` degrees in the screen's plane from normal towards
/// left-up, its screen tilted `tilt` degrees from upright towards facing up (negative: down).
private func pose(roll: Double, tilt: Double) -> Vector3 {
  let r = roll * Double.pi / 180
  let t = tilt * Double.pi / 180
  return Vector3(sin(r) * cos(t), -cos(r) * cos(t), -sin(t))
}

/// The defaults with one posture rule changed.
private func settings(
  flatGrace: Duration = ClassifierSettings.defaults.flatGrace,
  swingGrace: Duration = ClassifierSettings.defaults.swingGrace,
  overheadLock: Bool = ClassifierSettings.defaults.overheadLock
) -> ClassifierSettings {
  var settings = ClassifierSettings.defaults
  settings.flatGrace = flatGrace
  settings.swingGrace = swingGrace
  settings.overheadLock = overheadLock
  return settings
}

/// Feeds `poses` from `start`, 20 ms apart; returns the time of the first change and the next time.
private func run(
  _ classifier: inout OrientationClassifier, _ poses: [Vector3], from start: Int64
) -> (changedAt: Int64?, next: Int64) {
  var changedAt: Int64?
  var time = start
  for gravity in poses {
    if classifier.classify(gravity, at: at(time)).changed, changedAt == nil { changedAt = time }
    time += 20
  }
  return (changedAt, time)
}

/// A classifier holding normal, upright, since 300 ms.
private func holdingNormal(_ settings: ClassifierSettings) -> OrientationClassifier {
  var classifier = OrientationClassifier(settings: settings)
  _ = classifier.classify(DeviceOrientation.normal.gravity, at: at(0))
  _ = classifier.classify(DeviceOrientation.normal.gravity, at: at(300))
  return classifier
}

@Suite("The screen's tilt: lying flat, swings and the overhead lock")
struct PostureWatchTests {
  @Test("The tilt is 90 degrees face-up, 0 upright, -90 face-down, whatever the roll")
  func tilt() {
    #expect(PostureWatch.tilt(of: DeviceOrientation.faceUp.gravity) == 90)
    #expect(PostureWatch.tilt(of: DeviceOrientation.faceDown.gravity) == -90)
    #expect(PostureWatch.tilt(of: DeviceOrientation.leftUp.gravity) == 0)
    #expect(abs(PostureWatch.tilt(of: pose(roll: 130, tilt: 35))! - 35) < 1e-9)
    #expect(PostureWatch.tilt(of: Vector3(0, 0, 0)) == nil)
  }

  @Test("Lying flat counts only once it has lasted a second, and ends with the last flat sample")
  func flatNeedsASecond() {
    var watch = PostureWatch()
    for time in stride(from: 0, through: 980, by: 20) { watch.add(tilt: 89, at: at(Int64(time))) }
    #expect(watch.flatAt == nil)
    watch.add(tilt: 85, at: at(1000))
    #expect(watch.flatAt == at(1000))
    watch.add(tilt: 60, at: at(1020))
    #expect(watch.flatAt == at(1000))
    #expect(watch.graceEnds(flat: .milliseconds(500), swing: .milliseconds(300)) == at(1500))
    #expect(watch.graceEnds(flat: .zero, swing: .milliseconds(300)) == nil)
  }

  @Test("A swing is the tilt rising 20 degrees within 300 ms; a slow rise is none")
  func swing() {
    var slow = PostureWatch()
    // 20 degrees over 400 ms.
    for step in 0...20 { slow.add(tilt: Double(step), at: at(Int64(step) * 20)) }
    #expect(slow.swingAt == nil)
    var fast = PostureWatch()
    for step in 0...10 { fast.add(tilt: Double(step) * 4, at: at(Int64(step) * 20)) }
    // 20 degrees up at 100 ms; still 20 above the oldest tilt of the window at 200 ms.
    #expect(fast.swingAt == at(200))
    // Falling is no swing: tilting the screen down is how one reads.
    var falling = PostureWatch()
    for step in 0...10 { falling.add(tilt: 40 - Double(step) * 4, at: at(Int64(step) * 20)) }
    #expect(falling.swingAt == nil)
  }

  @Test("A sensor sampling at 1 kHz keeps a bounded history and still sees a swing")
  func fastSensorIsBounded() {
    var watch = PostureWatch()
    for step in 0..<300 { watch.add(tilt: Double(step) / 10, at: at(Int64(step))) }
    #expect(watch.swingAt == at(299) || watch.swingAt == at(200))
    #expect(watch.swingAt != nil)
  }

  @Test("The overhead lock turns on at 40 degrees face-down and off only above -15")
  func overhead() {
    var watch = PostureWatch()
    watch.add(tilt: -39, at: at(0))
    #expect(!watch.overhead)
    watch.add(tilt: -41, at: at(20))
    #expect(watch.overhead)
    watch.add(tilt: -20, at: at(40))
    #expect(watch.overhead)
    watch.add(tilt: -14, at: at(60))
    #expect(!watch.overhead)
  }
}

@Suite("Android's posture graces hold back a new screen orientation")
struct PostureGraceTests {
  /// Lies flat face-up from 0 to `flatUntil` (20 ms samples), then is held left-up at once.
  private func pickedUpSideways(_ settings: ClassifierSettings, flatUntil: Int64) -> Int64? {
    var classifier = OrientationClassifier(settings: settings)
    let flatSamples = Int(flatUntil / 20) + 1
    let (_, next) = run(&classifier, Array(repeating: pose(roll: 0, tilt: 90), count: flatSamples), from: 0)
    #expect(classifier.current == .faceUp)
    return run(&classifier, Array(repeating: pose(roll: 90, tilt: 30), count: 60), from: next).changedAt
  }

  @Test(
    "Picked up after lying flat for two seconds, the new orientation waits 750 ms from the last flat sample")
  func flatGrace() {
    // The last flat sample is at 2000 ms; samples come every 20 ms from 2020 on.
    #expect(pickedUpSideways(settings(), flatUntil: 2000) == 2760)
    #expect(pickedUpSideways(settings(flatGrace: .milliseconds(500)), flatUntil: 2000) == 2500)
    // Without the grace, the central rule takes it 40 ms after the first sample in it.
    #expect(pickedUpSideways(settings(flatGrace: .zero), flatUntil: 2000) == 2060)
  }

  @Test("Carried flat for less than a second, it is not held back")
  func briefFlatIsNotLyingFlat() {
    #expect(pickedUpSideways(settings(), flatUntil: 800) == 860)
  }

  @Test("Face-up itself is taken at once after lying flat: it turns no screen")
  func faceUpIsNotHeld() {
    var classifier = OrientationClassifier(settings: settings())
    _ = run(&classifier, Array(repeating: pose(roll: 0, tilt: 90), count: 101), from: 0)
    // Lifted upright (normal) for a moment, laid down again.
    _ = run(&classifier, Array(repeating: pose(roll: 0, tilt: 10), count: 40), from: 2020)
    #expect(classifier.current == .normal)
    let (changedAt, _) = run(&classifier, Array(repeating: pose(roll: 0, tilt: 90), count: 10), from: 2820)
    #expect(changedAt == 2860)
  }

  /// Swung from upright to 40 degrees back over 160 ms (1000 to 1160 ms, still normal), then
  /// turned to left-up at that tilt from 1180 ms on.
  private func swungThenTurned(_ settings: ClassifierSettings) -> (OrientationClassifier, Int64?) {
    var classifier = holdingNormal(settings)
    let swing = (0...8).map { pose(roll: 0, tilt: Double($0) * 5) }
    let (swingChange, next) = run(&classifier, swing, from: 1000)
    #expect(swingChange == nil)
    #expect(classifier.current == .normal)
    let (changedAt, _) = run(&classifier, Array(repeating: pose(roll: 90, tilt: 40), count: 40), from: next)
    return (classifier, changedAt)
  }

  @Test("After a swing a new orientation waits 300 ms from the swing's last sample")
  func swingGrace() {
    // The tilt was 20 at 1080 ms: every sample up to 1380 ms is 20 degrees above it, so the
    // swing lasts until 1380 ms and the grace until 1680 ms.
    let (classifier, changedAt) = swungThenTurned(settings())
    #expect(changedAt == 1680)
    #expect(classifier.current == .leftUp)
    #expect(swungThenTurned(settings(swingGrace: .zero)).1 == 1220)
  }

  @Test("While a grace runs, settlesAt is its end, so a poll or the quiet timer lands on it")
  func settlesAtIsTheGraceEnd() {
    var classifier = OrientationClassifier(settings: settings())
    _ = run(&classifier, Array(repeating: pose(roll: 0, tilt: 90), count: 101), from: 0)
    _ = classifier.classify(pose(roll: 90, tilt: 30), at: at(2020))
    #expect(classifier.settlesAt == at(2750))
    // An on-change sensor sends nothing more: silence decides at the grace's end, not before.
    let early = classifier.quiet(until: at(2749))
    #expect(!early)
    let atEnd = classifier.quiet(until: at(2750))
    #expect(atEnd)
    #expect(classifier.current == .leftUp)
  }

  /// Normal, then tilted 50 degrees face-down (overhead), then turned to left-up at 30
  /// degrees face-down and held 2 s, then brought back to 10 degrees face-down.
  private func readingOverhead(_ settings: ClassifierSettings) -> (during: DeviceOrientation?, back: Int64?) {
    var classifier = holdingNormal(settings)
    var (_, next) = run(&classifier, (1...10).map { pose(roll: 0, tilt: Double(-5 * $0)) }, from: 1000)
    (_, next) = run(&classifier, (1...9).map { pose(roll: Double(10 * $0), tilt: -30) }, from: next)
    (_, next) = run(&classifier, Array(repeating: pose(roll: 90, tilt: -30), count: 100), from: next)
    let during = classifier.current
    let (back, _) = run(&classifier, Array(repeating: pose(roll: 90, tilt: -10), count: 10), from: next)
    return (during, back.map { $0 - next })
  }

  @Test("Held overhead, the screen keeps its orientation; upright again, the turn is taken")
  func overheadLock() {
    let locked = readingOverhead(settings())
    #expect(locked.during == .normal)
    // Back above -15 degrees: taken 40 ms after the first sample there.
    #expect(locked.back == 40)
    let unlocked = readingOverhead(settings(overheadLock: false))
    #expect(unlocked.during == .leftUp)
  }

  @Test("Starting overhead, the first orientation is taken: there is none to hold")
  func overheadFirstOrientation() {
    var classifier = OrientationClassifier(settings: settings())
    let (changedAt, _) = run(&classifier, Array(repeating: pose(roll: 80, tilt: -41), count: 5), from: 0)
    #expect(changedAt == 40)
    #expect(classifier.current == .leftUp)
  }

  @Test("Overhead, face-down is still taken: it turns no screen")
  func overheadFaceDown() {
    var classifier = holdingNormal(settings())
    let (changedAt, _) = run(
      &classifier,
      (1...9).map { pose(roll: 0, tilt: Double(-10 * $0)) }
        + Array(repeating: pose(roll: 0, tilt: -90), count: 5),
      from: 1000)
    #expect(changedAt != nil)
    #expect(classifier.current == .faceDown)
  }

  @Test("A pause forgets the posture: the first sample after it is adopted at once")
  func adoptionIgnoresGrace() {
    var classifier = OrientationClassifier(settings: settings())
    _ = run(&classifier, Array(repeating: pose(roll: 0, tilt: 90), count: 101), from: 0)
    classifier.adoptNextProposal()
    let adopted = classifier.classify(pose(roll: 90, tilt: 30), at: at(2020)).changed
    #expect(adopted)
    #expect(classifier.current == .leftUp)
    #expect(classifier.graceEnds == nil)
  }

  @Test("Negative graces are refused, naming what is wrong")
  func negativeGrace() {
    #expect(throws: ValueError.self) { try settings(flatGrace: .milliseconds(-1)).validate() }
  }
}
