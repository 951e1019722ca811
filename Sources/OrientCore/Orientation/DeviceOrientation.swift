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

  /// The tangent of 22.5 degrees: how far from an orientation's direction its central zone
  /// reaches (`isCentral`).
  @usableFromInline static let centralSlope = 0.414_213_562

  /// Whether `vector` points within 22.5 degrees of this orientation's direction: for the four
  /// screen orientations as seen in the screen's plane (a tablet held tilted back counts),
  /// for face-up and face-down from the screen's normal. Between two adjacent orientations
  /// that leaves 45 degrees that are central to neither, the gap Android keeps between the
  /// orientations it proposes.
  @inlinable
  package func isCentral(_ vector: Vector3) -> Bool {
    let along = component(of: vector)
    let across: Double
    switch self {
    case .normal, .bottomUp: across = abs(vector.x)
    case .leftUp, .rightUp: across = abs(vector.y)
    case .faceUp, .faceDown: across = (vector.x * vector.x + vector.y * vector.y).squareRoot()
    }
    return along > 0 && across <= along * Self.centralSlope
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
