import Glibc
import OrientCore
import Testing

@Suite("iio-sensor-proxy's accelerometer tilt in orientd's frame")
struct AccelerometerTiltTests {
  /// Gravity for a device upright, then leaned back (screen towards the sky) by `degrees`.
  func leanedBack(_ degrees: Double) -> Vector3 {
    let radians = degrees * Double.pi / 180
    return Vector3(0, -cos(radians), -sin(radians))
  }

  @Test(
    "Each lean gives the tilt iio-sensor-proxy names for it",
    arguments: [
      (0.0, AccelerometerTilt.vertical), (19.9, .vertical), (-19.9, .vertical), (21, .tiltedUp),
      (45, .tiltedUp),
      (69.9, .tiltedUp), (-45, .tiltedDown), (70.1, .faceUp), (90, .faceUp), (-90, .faceDown),
      (-70.1, .faceDown),
    ])
  func leans(degrees: Double, tilt: AccelerometerTilt) {
    #expect(AccelerometerTilt(gravity: leanedBack(degrees)) == tilt)
  }

  @Test("Face-up is z = -1 g in orientd's frame, and the lean does not depend on which edge is up")
  func frameAndEdges() {
    #expect(AccelerometerTilt(gravity: Vector3(0, 0, -1)) == .faceUp)
    #expect(AccelerometerTilt(gravity: Vector3(0, 0, 1)) == .faceDown)
    // Left-up, leaned back 45 degrees; and a 26 g reading of the same pose.
    let leftUpLeaned = Vector3(0.7071, 0, -0.7071)
    #expect(AccelerometerTilt(gravity: leftUpLeaned) == .tiltedUp)
    #expect(AccelerometerTilt(gravity: Vector3(0.7071 * 26, 0, -0.7071 * 26)) == .tiltedUp)
  }

  @Test("No gravity, or a reading that is not a number, is undefined")
  func undefinedReadings() {
    #expect(AccelerometerTilt(gravity: Vector3(0, 0, 0)) == .undefined)
    #expect(AccelerometerTilt(gravity: Vector3(0, 0.05, 0)) == .undefined)
    #expect(AccelerometerTilt(gravity: Vector3(.nan, 0, -1)) == .undefined)
    #expect(
      AccelerometerTilt.allCases.map(\.rawValue) == [
        "undefined", "vertical", "tilted-up", "tilted-down", "face-up", "face-down",
      ])
  }
}
