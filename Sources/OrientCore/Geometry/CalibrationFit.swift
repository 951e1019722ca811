/// The mount matrix that maps measured gravity in the three poses to what the contract expects.
package struct CalibrationFit: Equatable, Sendable {
  /// The exact fit M with M x measured = expected for the three poses.
  package let fitted: Matrix3
  /// The nearest signed permutation matrix, when within `roundingLimit` degrees of the fit.
  package let rounded: Matrix3?
  /// The largest angle between a fitted row and the matching rounded row, in degrees.
  package let deviation: Double
  /// The matrix to use: the rounded one when there is one, else the fit.
  package var matrix: Matrix3 { rounded ?? fitted }
  /// Whether the matrix to use is orthonormal.
  package var isOrthonormal: Bool { matrix.isOrthonormal(tolerance: 0.05) }
  /// Its determinant: +1 for a rotation, -1 for a mirror.
  package var determinant: Double { matrix.determinant }
  /// Whether the matrix mirrors: no sensor turned as asked gives that, since a sensor's axes
  /// are right-handed as the contract's are; one pose was not the one asked for.
  package var isMirrored: Bool { determinant < 0 }

  /// Rounding to a signed permutation is accepted up to this many degrees.
  static let roundingLimit = 20.0

  /// Fits from the averaged raw gravity of the normal, left-up and face-up poses.
  package init(normal: Vector3, leftUp: Vector3, faceUp: Vector3) throws(ValueError) {
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
