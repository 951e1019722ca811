/// The poses `orientctl calibrate` asks for, and the corrected gravity each must give.
public enum CalibrationPose: CaseIterable, Sendable {
  case normal
  case leftUp
  case faceUp

  /// The gravity the contract expects in this pose: normal (0, -1, 0), left-up (+1, 0, 0),
  /// face-up (0, 0, -1).
  public var expected: Vector3 {
    switch self {
    case .normal: return DeviceOrientation.normal.gravity
    case .leftUp: return DeviceOrientation.leftUp.gravity
    case .faceUp: return DeviceOrientation.faceUp.gravity
    }
  }

  /// What to ask the user to do.
  public var instruction: String {
    switch self {
    case .normal: return "Hold the device upright in its normal position (as you would use it)"
    case .leftUp: return "Turn it so its left edge points up"
    case .faceUp: return "Lay it flat on a table, screen up"
    }
  }
}

/// The verdict on one pose's samples.
public enum PoseReading: Equatable, Sendable {
  /// The averaged raw gravity.
  case steady(Vector3)
  /// The samples varied too much: the device moved.
  case shaking(spread: Double)
  /// The average is not near 1 g: not at rest, or a wrong scale.
  case notOneG(magnitude: Double)
  /// Too few samples arrived.
  case tooFew(count: Int)

  /// Judges raw samples (in g) taken over about a second.
  public init(
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

/// The mount matrix that maps measured gravity in the three poses to what the contract expects.
public struct CalibrationFit: Equatable, Sendable {
  /// The exact fit M with M x measured = expected for the three poses.
  public let fitted: Matrix3
  /// The nearest signed permutation matrix, when within `roundingLimit` degrees of the fit.
  public let rounded: Matrix3?
  /// The largest angle between a fitted row and the matching rounded row, in degrees.
  public let deviation: Double
  /// The matrix to use: the rounded one when there is one, else the fit.
  public var matrix: Matrix3 { rounded ?? fitted }
  /// Whether the matrix to use is orthonormal.
  public var isOrthonormal: Bool { matrix.isOrthonormal(tolerance: 0.05) }
  /// Its determinant: +1 for a rotation, -1 for a mirror.
  public var determinant: Double { matrix.determinant }

  /// Rounding to a signed permutation is accepted up to this many degrees.
  public static let roundingLimit = 20.0

  /// Fits from the averaged raw gravity of the normal, left-up and face-up poses.
  public init(normal: Vector3, leftUp: Vector3, faceUp: Vector3) throws(ValueError) {
    let measured = Matrix3(columns: normal.normalized, leftUp.normalized, faceUp.normalized)
    guard let inverse = measured.inverse, abs(measured.determinant) > 0.2 else {
      throw ValueError("the three poses are not far enough apart to tell the axes apart; repeat them")
    }
    let expected = Matrix3(
      columns: CalibrationPose.normal.expected, CalibrationPose.leftUp.expected,
      CalibrationPose.faceUp.expected)
    let fit = expected * inverse
    let permutation = Self.nearestSignedPermutation(fit)
    let angle = permutation.map { candidate in
      zip(fit.rows, candidate.rows).map { $0.angle(to: $1) }.max() ?? 180
    }
    fitted = fit
    deviation = angle ?? 180
    rounded = (angle ?? 180) <= Self.roundingLimit ? permutation : nil
  }

  /// Each row's largest entry becomes ±1 and the others 0; nil if two rows pick one axis.
  static func nearestSignedPermutation(_ matrix: Matrix3) -> Matrix3? {
    var rows: [Vector3] = []
    var used: Set<Int> = []
    for row in matrix.rows {
      let magnitudes = [abs(row.x), abs(row.y), abs(row.z)]
      let axis = magnitudes.firstIndex(of: magnitudes.max()!)!
      guard used.insert(axis).inserted else { return nil }
      let sign: Double = row[axis] < 0 ? -1 : 1
      rows.append(Vector3(axis == 0 ? sign : 0, axis == 1 ? sign : 0, axis == 2 ? sign : 0))
    }
    return Matrix3(rows: rows[0], rows[1], rows[2])
  }
}

/// Builds the hwdb match key `60-sensor.hwdb` uses for this sensor on this machine.
public enum HwdbKey {
  /// `sensor:modalias:<parent modalias>*:dmi:*:svn<vendor>:pn<product>:*`, falling back to the
  /// full DMI string when it lacks a vendor or product name.
  public static func make(modalias: String, dmi: String) -> String {
    let fields = dmi.split(separator: ":")
    let vendor = fields.first { $0.hasPrefix("svn") }
    let product = fields.first { $0.hasPrefix("pn") }
    let machine: String
    if let vendor, let product {
      machine = "dmi:*:\(vendor):\(product):*"
    } else {
      machine = dmi.isEmpty ? "dmi:*" : dmi
    }
    let device = modalias.isEmpty ? "*" : modalias + "*"
    return "sensor:modalias:\(device):\(machine)"
  }

  /// The lines for `/etc/udev/hwdb.d/61-sensor-local.hwdb`.
  public static func entry(key: String, matrix: Matrix3) -> String {
    "\(key)\n ACCEL_MOUNT_MATRIX=\(MountMatrix.format(matrix))\n"
  }
}
