import Glibc
import OrientCore
import Testing

/// Turns `vector` by `degrees` about the axis `axis` (0: x, 1: y, 2: z), right-handed.
private func turned(_ vector: Vector3, by degrees: Double, about axis: Int) -> Vector3 {
  let radians = degrees * Double.pi / 180
  let (c, s) = (cos(radians), sin(radians))
  switch axis {
  case 0: return Vector3(vector.x, c * vector.y - s * vector.z, s * vector.y + c * vector.z)
  case 1: return Vector3(c * vector.x + s * vector.z, vector.y, -s * vector.x + c * vector.z)
  default: return Vector3(c * vector.x - s * vector.y, s * vector.x + c * vector.y, vector.z)
  }
}

/// The lid's reading at `opening` degrees with the base reading `base`: the lid's frame is
/// the base's turned about the hinge (x) by the opening less 180.
private func lid(at opening: Double, base: Vector3) -> Vector3 { turned(base, by: opening - 180, about: 0) }

private func near(_ value: Double?, _ expected: Double, within tolerance: Double = 1e-6) -> Bool {
  guard let value else { return false }
  let difference = abs(value - expected).truncatingRemainder(dividingBy: 360)
  return min(difference, 360 - difference) <= tolerance
}

@Suite("The hinge angle from the lid and base accelerometers")
struct HingeAngleTests {
  @Test("With the base flat on a desk the lid reads as the issue's examples at 90, 180, 270 and 360 degrees")
  func examples() {
    let base = Vector3(0, 0, -1)
    #expect(near(HingeAngle.degrees(lid: Vector3(0, -1, 0), base: base), 90))
    #expect(near(HingeAngle.degrees(lid: Vector3(0, 0, -1), base: base), 180))
    #expect(near(HingeAngle.degrees(lid: Vector3(0, 1, 0), base: base), 270))
    #expect(near(HingeAngle.degrees(lid: Vector3(0, 0, 1), base: base), 0))
    // The construction used below gives the same readings.
    for opening in [90.0, 180, 270] {
      let reading = lid(at: opening, base: base)
      #expect(near(HingeAngle.degrees(lid: reading, base: base), opening), "\(opening): \(reading)")
    }
  }

  @Test(
    "Every opening reads the same with the whole device turned about any axis, unless gravity lies along the hinge",
    arguments: [0, 1, 2])
  func wholeDeviceTurned(axis: Int) {
    let flatBase = Vector3(0, 0, -1)
    for opening in stride(from: 5.0, through: 355, by: 10) {
      for tilt in stride(from: -80.0, through: 80, by: 20) {
        // Gravity as the turned device's base sees it; the lid's frame is the base's turned
        // about the hinge, whatever way the whole device faces.
        let base = turned(flatBase, by: tilt, about: axis)
        let lidReading = lid(at: opening, base: base)
        let angle = HingeAngle.degrees(lid: lidReading, base: base)
        #expect(
          near(angle, opening, within: 1e-6), "opening \(opening), turn \(tilt) about \(axis): \(angle ?? -1)"
        )
      }
    }
  }

  @Test("Gravity along the hinge gives no angle, and says how much lies along it")
  func verticalHinge() {
    #expect(HingeAngle.degrees(lid: Vector3(1, 0.01, 0.02), base: Vector3(1, 0, -0.05)) == nil)
    #expect(HingeAngle.alongHinge(lid: Vector3(0.8, 0.6, 0), base: Vector3(0.7, 0, -0.7)) == 0.8)
    #expect(HingeAngle.degrees(lid: Vector3(0, .nan, 0), base: Vector3(0, 0, -1)) == nil)
  }
}

@Suite("A base sensor set up as systemd's hwdb documents it")
struct HingeBaseFrameTests {
  @Test(
    "A base reading like the display's with the lid closed gives 0 degrees once turned into the flat frame")
  func closedLidReadsAlike() {
    // Closed, on a desk: the display faces down, and the hwdb's base frame reads alike.
    let reading = Vector3(0, 0, 1)
    #expect(HingeAngle.flatFrame(ofBase: reading) == Vector3(0, 0, -1))
    #expect(near(HingeAngle.degrees(lid: reading, base: HingeAngle.flatFrame(ofBase: reading)), 0))
    // Open as a laptop: the base still reads (0, 0, 1) in the hwdb's frame.
    #expect(near(HingeAngle.degrees(lid: Vector3(0, -1, 0), base: HingeAngle.flatFrame(ofBase: reading)), 90))
  }

  @Test("The turn is half a turn about the hinge: x stays, y and z change sign, twice is no turn")
  func halfTurn() {
    let reading = Vector3(0.3, -0.5, 0.8)
    #expect(HingeAngle.flatFrame(ofBase: reading) == Vector3(0.3, 0.5, -0.8))
    #expect(HingeAngle.flatFrame(ofBase: HingeAngle.flatFrame(ofBase: reading)) == reading)
  }
}
