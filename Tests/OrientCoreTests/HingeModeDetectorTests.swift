import Glibc
import OrientCore
import Testing

/// The lid's reading at `opening` degrees with the base flat on a desk, reading (0, 0, -1).
private func lid(at opening: Double) -> Vector3 {
  let radians = (opening - 180) * Double.pi / 180
  return Vector3(0, sin(radians), -cos(radians))
}

private let flatBase = Vector3(0, 0, -1)

/// Feeds one reading a second (the unstable hold is 2 s) at each opening; returns the modes.
private func sweep(
  _ detector: inout HingeModeDetector, _ openings: [Double], from start: Int64 = 0, lidClosed: Bool? = nil
) -> [TabletMode] {
  openings.enumerated().map { index, opening in
    let time = SampleTime(microseconds: start + Int64(index) * 1_000_000)
    _ = detector.update(lid: lid(at: opening), base: flatBase, at: time, lidClosed: lidClosed)
    return detector.mode
  }
}

@Suite("Tablet or laptop from the hinge angle, as ChromeOS decides")
struct HingeModeDetectorTests {
  @Test("A sweep from 30 to 330 degrees and back changes the mode only at 200 going up and 160 going down")
  func hysteresis() {
    var detector = HingeModeDetector()
    let up = Array(stride(from: 30.0, through: 330, by: 10))
    let down = Array(up.reversed())
    let modesUp = sweep(&detector, up)
    #expect(zip(up, modesUp).allSatisfy { $1 == ($0 >= 200 ? .tablet : .laptop) }, "\(modesUp)")
    let modesDown = sweep(&detector, down, from: 100_000_000)
    #expect(zip(down, modesDown).allSatisfy { $1 == ($0 <= 160 ? .laptop : .tablet) }, "\(modesDown)")
  }

  @Test("Wobbling inside the band between 160 and 200 degrees never changes the mode")
  func noFlapping() {
    var detector = HingeModeDetector()
    _ = sweep(&detector, [100])
    let wobble = (0..<200).map { 165 + 30 * Double($0 % 7) / 6 }
    #expect(Set(sweep(&detector, wobble, from: 10_000_000)) == [.laptop])
    _ = sweep(&detector, [250], from: 1_000_000_000)
    #expect(Set(sweep(&detector, wobble, from: 2_000_000_000)) == [.tablet])
  }

  @Test("Near 0 or 360 degrees the mode waits 2 s, then history tells folded back from closed")
  func unstableAngles() {
    var folding = HingeModeDetector()
    _ = sweep(&folding, [120, 250, 320])
    #expect(folding.mode == .tablet)
    // Folded back to 355: unstable, then held. 355 reads as folded back.
    let time = SampleTime(microseconds: 10_000_000)
    _ = folding.update(lid: lid(at: 355), base: flatBase, at: time, lidClosed: nil)
    let held = folding.update(
      lid: lid(at: 358), base: flatBase, at: SampleTime(microseconds: 12_000_000), lidClosed: nil)
    #expect(folding.mode == .tablet && held.angle == 358)

    var closing = HingeModeDetector()
    _ = sweep(&closing, [250, 120, 40])
    #expect(closing.mode == .laptop)
    // Past 360 the reading wraps: a lid closed to 2 degrees must not read as folded back.
    let first = closing.update(
      lid: lid(at: 2), base: flatBase, at: SampleTime(microseconds: 10_000_000), lidClosed: nil)
    #expect(!first.modeChanged && closing.mode == .laptop)
    let later = closing.update(
      lid: lid(at: 358), base: flatBase, at: SampleTime(microseconds: 12_500_000), lidClosed: nil)
    #expect(closing.mode == .laptop && later.angle == 0, "closed, published as 0: \(later)")
  }

  @Test("An unstable angle held under 2 s changes nothing, and without history it never decides")
  func unstableWithoutHistory() {
    var detector = HingeModeDetector()
    _ = sweep(&detector, [250])
    let brief = detector.update(
      lid: lid(at: 5), base: flatBase, at: SampleTime(microseconds: 5_000_000), lidClosed: nil)
    let stillBrief = detector.update(
      lid: lid(at: 5), base: flatBase, at: SampleTime(microseconds: 6_900_000), lidClosed: nil)
    #expect(!brief.modeChanged && !stillBrief.modeChanged && detector.mode == .tablet)

    var fresh = HingeModeDetector()
    _ = sweep(&fresh, [350, 350, 350, 350])
    #expect(fresh.mode == .unknown)
    // The lid switch says open: a lid near 0 or 360 degrees and open is folded back.
    _ = sweep(&fresh, [350, 350, 350], from: 100_000_000, lidClosed: false)
    #expect(fresh.mode == .tablet)
  }

  @Test("A closed lid switch is a laptop; a vertical hinge and a moving device are ignored")
  func lidSwitchAndIgnoredReadings() {
    var detector = HingeModeDetector()
    _ = sweep(&detector, [300])
    #expect(detector.mode == .tablet)
    let closed = detector.update(
      lid: lid(at: 300), base: flatBase, at: SampleTime(microseconds: 9_000_000), lidClosed: true)
    #expect(closed.modeChanged && detector.mode == .laptop)

    var tablet = HingeModeDetector()
    _ = sweep(&tablet, [300])
    // Hinge near vertical: gravity 0.8 g along x on both.
    let vertical = tablet.update(
      lid: Vector3(0.8, 0.6, 0), base: Vector3(0.8, 0, -0.6), at: SampleTime(microseconds: 9_000_000),
      lidClosed: nil)
    #expect(vertical.ignored == .verticalHinge && tablet.mode == .tablet)
    // Magnitudes 1.0 and 1.3 g: moving.
    let moving = tablet.update(
      lid: lid(at: 100), base: Vector3(0, 0, -1.3), at: SampleTime(microseconds: 9_100_000), lidClosed: nil)
    #expect(moving.ignored == .moving && tablet.mode == .tablet)
  }

  @Test("The angle is published rounded, and again only once it moved by 5 degrees")
  func publishedAngle() {
    var detector = HingeModeDetector()
    let published = [100.4, 102, 104.4, 105.6, 103, 99].enumerated().map { index, opening in
      detector.update(
        lid: lid(at: opening), base: flatBase, at: SampleTime(microseconds: Int64(index) * 100_000),
        lidClosed: nil
      ).angle
    }
    // 105.6 is 6 from 100; 99 is 7 from 106.
    #expect(published == [100, nil, nil, 106, nil, 99])
  }
}
