/// The physical orientation of the device: which edge or face points up.
///
/// Directions are in the corrected (display) frame, where an upright device
/// reads y = -1 g, as systemd's hwdb and iio-sensor-proxy expect.
package enum DeviceOrientation: UInt8, CaseIterable, Sendable {
  case normal
  case bottomUp
  case leftUp
  case rightUp
  case faceUp
  case faceDown

  /// The protocol name, e.g. `left-up`.
  package var name: String {
    switch self {
    case .normal: return "normal"
    case .bottomUp: return "bottom-up"
    case .leftUp: return "left-up"
    case .rightUp: return "right-up"
    case .faceUp: return "face-up"
    case .faceDown: return "face-down"
    }
  }

  /// Looks an orientation up by its protocol name.
  package init?(name: some StringProtocol) {
    guard let match = Self.allCases.first(where: { $0.name == name }) else { return nil }
    self = match
  }

  /// The gravity direction that reads as this orientation, in the corrected frame.
  package var gravity: Vector3 {
    switch self {
    case .normal: return Vector3(0, -1, 0)
    case .bottomUp: return Vector3(0, 1, 0)
    case .leftUp: return Vector3(1, 0, 0)
    case .rightUp: return Vector3(-1, 0, 0)
    case .faceUp: return Vector3(0, 0, -1)
    case .faceDown: return Vector3(0, 0, 1)
    }
  }

  /// The projection of `vector` on this orientation's direction.
  @inlinable
  package func component(of vector: Vector3) -> Double {
    switch self {
    case .normal: return -vector.y
    case .bottomUp: return vector.y
    case .leftUp: return vector.x
    case .rightUp: return -vector.x
    case .faceUp: return -vector.z
    case .faceDown: return vector.z
    }
  }

  /// The matching screen orientation, or nil for face-up and face-down.
  package var screen: ScreenOrientation? {
    switch self {
    case .normal: return .normal
    case .bottomUp: return .bottomUp
    case .leftUp: return .leftUp
    case .rightUp: return .rightUp
    case .faceUp, .faceDown: return nil
    }
  }
}

/// The name of an optional orientation, `undefined` for nil.
package func orientationName(_ orientation: DeviceOrientation?) -> String {
  orientation?.name ?? "undefined"
}
