/// The poses `orientctl calibrate` asks for, and the corrected gravity each must give.
package enum CalibrationPose: CaseIterable, Sendable {
  case normal
  case leftUp
  case faceUp

  /// The gravity the contract expects in this pose: normal (0, -1, 0), left-up (+1, 0, 0),
  /// face-up (0, 0, -1).
  package var expected: Vector3 {
    switch self {
    case .normal: return DeviceOrientation.normal.gravity
    case .leftUp: return DeviceOrientation.leftUp.gravity
    case .faceUp: return DeviceOrientation.faceUp.gravity
    }
  }

  /// What to ask the user to do.
  package var instruction: String {
    switch self {
    case .normal: return "Hold the device upright in its normal position (as you would use it)"
    case .leftUp: return "Turn it so its left edge points up"
    case .faceUp: return "Lay it flat on a table, screen up"
    }
  }
}

/// The verdict on one pose's samples.
package enum PoseReading: Equatable, Sendable {
  /// The averaged raw gravity.
  case steady(Vector3)
  /// The samples varied too much: the device moved.
  case shaking(spread: Double)
  /// The average is not near 1 g: not at rest, or a wrong scale.
  case notOneG(magnitude: Double)
  /// Too few samples arrived.
  case tooFew(count: Int)

  /// Judges raw samples (in g) taken over about a second.
  package init(
    samples: [Vector3], minimumCount: Int = 5, maximumSpread: Double = 0.08, tolerance: Double = 0.15
  ) {
    guard samples.count >= minimumCount else {
      self = .tooFew(count: samples.count)
      return
    }
    let count = Double(samples.count)
    let sum = samples.reduce(Vector3.zero) { Vector3($0.x + $1.x, $0.y + $1.y, $0.z + $1.z) }
    let mean = Vector3(sum.x / count, sum.y / count, sum.z / count)
    let spread = samples.map { Vector3($0.x - mean.x, $0.y - mean.y, $0.z - mean.z).magnitude }.max() ?? 0
    if spread > maximumSpread {
      self = .shaking(spread: spread)
    } else if abs(mean.magnitude - 1) > tolerance {
      self = .notOneG(magnitude: mean.magnitude)
    } else {
      self = .steady(mean)
    }
  }
}
