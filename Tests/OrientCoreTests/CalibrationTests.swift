import Testing

@testable import OrientCore

@Suite("Calibrating the mount matrix")
struct CalibrationTests {
  /// What a sensor mounted with `matrix` reads in each pose: raw = M^-1 x expected.
  func readings(for matrix: Matrix3) -> (Vector3, Vector3, Vector3) {
    let inverse = matrix.inverse!
    return (
      inverse * CalibrationPose.normal.expected, inverse * CalibrationPose.leftUp.expected,
      inverse * CalibrationPose.faceUp.expected
    )
  }

  @Test("A sensor rotated by a non-symmetric matrix gives that matrix back, rounded")
  func recoversMatrix() throws {
    let mount = try MountMatrix.parse("0, 1, 0; -1, 0, 0; 0, 0, 1")
    let (normal, leftUp, faceUp) = readings(for: mount)
    let fit = try CalibrationFit(normal: normal, leftUp: leftUp, faceUp: faceUp)
    #expect(fit.rounded == mount)
    #expect(fit.deviation < 1e-6)
    #expect(fit.isOrthonormal)
    #expect(abs(fit.determinant - 1) < 1e-9)
  }

  @Test("Every signed permutation with determinant 1 is recovered")
  func allRotations() throws {
    var recovered = 0
    for a in 0..<3 {
      for b in 0..<3 where b != a {
        let c = 3 - a - b
        for signs in 0..<8 {
          var rows = [Vector3.zero, .zero, .zero]
          for (row, axis) in [a, b, c].enumerated() {
            let sign: Double = (signs >> row) & 1 == 1 ? -1 : 1
            rows[row] = Vector3(axis == 0 ? sign : 0, axis == 1 ? sign : 0, axis == 2 ? sign : 0)
          }
          let mount = Matrix3(rows: rows[0], rows[1], rows[2])
          guard mount.determinant > 0 else { continue }
          let (normal, leftUp, faceUp) = readings(for: mount)
          #expect(try CalibrationFit(normal: normal, leftUp: leftUp, faceUp: faceUp).rounded == mount)
          recovered += 1
        }
      }
    }
    #expect(recovered == 24)
  }

  @Test("A slightly tilted, noisy reading still rounds; a 30 degree error does not")
  func roundingLimit() throws {
    let tilted = try CalibrationFit(
      normal: Vector3(0.1, -0.99, 0.05), leftUp: Vector3(0.98, 0.12, -0.03),
      faceUp: Vector3(0.04, -0.08, -1.01))
    #expect(tilted.rounded == .identity)
    #expect(tilted.deviation > 1 && tilted.deviation < 20)
    let skewed = try CalibrationFit(
      normal: Vector3(0.5, -0.866, 0), leftUp: Vector3(0.866, 0.5, 0), faceUp: Vector3(0, 0, -1))
    #expect(skewed.rounded == nil)
    #expect(skewed.deviation >= 29)
    #expect(skewed.matrix == skewed.fitted)
  }

  @Test("Poses that are not apart are refused")
  func degenerate() {
    #expect(throws: ValueError.self) {
      try CalibrationFit(normal: Vector3(0, -1, 0), leftUp: Vector3(0, -1, 0.05), faceUp: Vector3(0, 0, -1))
    }
  }

  @Test("A pose must be steady and near 1 g")
  func poseReadings() {
    let still = Array(repeating: Vector3(0, -1, 0), count: 10)
    #expect(PoseReading(samples: still) == .steady(Vector3(0, -1, 0)))
    let shaken = (0..<10).map { Vector3(0, $0 % 2 == 0 ? -1.3 : -0.7, 0) }
    if case .shaking(let spread) = PoseReading(samples: shaken) {
      #expect(spread > 0.2)
    } else {
      Issue.record("not shaking")
    }
    #expect(
      PoseReading(samples: Array(repeating: Vector3(0, -0.25, 0), count: 10)) == .notOneG(magnitude: 0.25))
    #expect(PoseReading(samples: Array(still.prefix(2))) == .tooFew(count: 2))
  }

  @Test("The hwdb key uses the parent modalias and the machine's vendor and product")
  func hwdbKey() {
    let dmi = "dmi:bvnLENOVO:bvr5WCN31WW:bd01/01/2020:svnLENOVO:pn80XE:pvrLenovoYoga:rvnLENOVO:rnLNVNB161216:"
    #expect(
      HwdbKey.make(modalias: "acpi:BOSC0200:BOSC0200:", dmi: dmi)
        == "sensor:modalias:acpi:BOSC0200:BOSC0200:*:dmi:*:svnLENOVO:pn80XE:*")
    #expect(HwdbKey.make(modalias: "", dmi: "") == "sensor:modalias:*:dmi:*")
    #expect(
      HwdbKey.entry(key: "sensor:modalias:x*:dmi:*", matrix: .identity)
        == "sensor:modalias:x*:dmi:*\n ACCEL_MOUNT_MATRIX=1, 0, 0; 0, 1, 0; 0, 0, 1\n")
  }

  @Test("The inverse undoes the matrix")
  func inverse() throws {
    let matrix = try MountMatrix.parse("2, 1, 0; 0, 1, 3; 1, 0, 1")
    let product = matrix * matrix.inverse!
    for (row, expected) in zip(product.rows, Matrix3.identity.rows) {
      #expect(
        abs(row.x - expected.x) < 1e-12 && abs(row.y - expected.y) < 1e-12 && abs(row.z - expected.z) < 1e-12)
    }
    #expect(try MountMatrix.parse("1, 2, 3; 2, 4, 6; 0, 0, 1").inverse == nil)
  }
}

@Suite("Calibration results as people copy them")
struct CalibrationOutputTests {
  @Test("A rotation is not mirrored; poses with the screen down for up fit only a mirror")
  func mirroredFit() throws {
    let rotation = try CalibrationFit(
      normal: Vector3(1, 0, 0), leftUp: Vector3(0, 1, 0), faceUp: Vector3(0, 0, -1))
    #expect(!rotation.isMirrored)
    #expect(rotation.determinant > 0.99)
    let mirror = try CalibrationFit(
      normal: Vector3(1, 0, 0), leftUp: Vector3(0, 1, 0), faceUp: Vector3(0, 0, 1))
    #expect(mirror.isMirrored)
    #expect(mirror.determinant < -0.99)
  }

  @Test("Rounded matrices have at most three decimals, no trailing zeros and no negative zero")
  func rounded() {
    let half = 0.7071067811865475
    let matrix = Matrix3(rows: Vector3(-half, half, -1e-9), Vector3(-half, -half, 0), Vector3(0, 0, 1))
    #expect(MountMatrix.formatRounded(matrix) == "-0.707, 0.707, 0; -0.707, -0.707, 0; 0, 0, 1")
    #expect(
      MountMatrix.formatRounded(Matrix3(rows: Vector3(0.5, 0.25, 0.1254), Vector3(0, 1, 0), Vector3(0, 0, 1)))
        == "0.5, 0.25, 0.125; 0, 1, 0; 0, 0, 1")
    #expect(
      HwdbKey.entry(key: "sensor:modalias:*:dmi:*", matrix: matrix)
        == "sensor:modalias:*:dmi:*\n ACCEL_MOUNT_MATRIX=-0.707, 0.707, 0; -0.707, -0.707, 0; 0, 0, 1\n")
  }
}
