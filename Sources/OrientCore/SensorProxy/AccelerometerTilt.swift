import Glibc

/// iio-sensor-proxy's `AccelerometerTilt`: how far the screen leans back from upright.
///
/// It is the elevation of the screen's normal: the angle between the screen's outward normal
/// and the horizontal plane, from the gravity vector. In orientd's frame (Windows' gravity
/// frame, as systemd's hwdb matrices are written for) a device lying face-up reads
/// z = -1 g, so the normal points up by asin(-z / |g|). Up to 20 degrees either way is
/// `vertical`; under 70, `tilted-up` (screen towards the sky) or `tilted-down`; beyond,
/// `face-up` or `face-down`. iio-sensor-proxy 3.6 and later count z the other way round
/// (z > 0 face-up); the names mean the same poses in both.
package enum AccelerometerTilt: String, CaseIterable, Sendable {
  case undefined
  case vertical
  case tiltedUp = "tilted-up"
  case tiltedDown = "tilted-down"
  case faceUp = "face-up"
  case faceDown = "face-down"

  /// The largest elevation, in degrees, that is still `vertical`.
  static let verticalDegrees = 20.0
  /// The elevation, in degrees, from which on the device is `face-up` or `face-down`.
  static let flatDegrees = 70.0
  /// Below this many g there is no direction to take: `undefined`.
  static let minimumMagnitude = 0.1

  /// The tilt of a gravity vector in g, in orientd's frame.
  package init(gravity: Vector3) {
    let magnitude = gravity.magnitude
    guard magnitude.isFinite, magnitude >= Self.minimumMagnitude else {
      self = .undefined
      return
    }
    let elevation = Self.elevationDegrees(gravity)
    switch abs(elevation) {
    case ...Self.verticalDegrees: self = .vertical
    case ..<Self.flatDegrees: self = elevation > 0 ? .tiltedUp : .tiltedDown
    default: self = elevation > 0 ? .faceUp : .faceDown
    }
  }

  /// How far the screen's normal points above the horizon, in degrees (-90 to 90).
  static func elevationDegrees(_ gravity: Vector3) -> Double {
    let sine = max(-1, min(1, -gravity.z / gravity.magnitude))
    return Glibc.asin(sine) * 180 / Double.pi
  }
}
