import Testing

@testable import OrientCore

@Suite("Parsing and applying mount matrices")
struct MountMatrixTests {
  @Test("Row i of the matrix gives corrected axis i, so the non-symmetric example maps +x to normal")
  func nonSymmetricExample() throws {
    let matrix = try MountMatrix.parse("0, 1, 0; -1, 0, 0; 0, 0, 1")
    #expect(approximatelyEqual(matrix * Vector3(1, 0, 0), Vector3(0, -1, 0)))
    #expect(approximatelyEqual(matrix * Vector3(0, 1, 0), Vector3(1, 0, 0)))
    #expect(OrientationClassifier.strongest(matrix * Vector3(1, 0, 0)) == .normal)
    #expect(matrix != matrix.transposed)
  }

  @Test("Spaces are optional and extra spaces are fine")
  func spacing() throws {
    let compact = try MountMatrix.parse("0,1,0;-1,0,0;0,0,1")
    let spaced = try MountMatrix.parse("  0 ,  1, 0 ;  -1, 0,0;0, 0, 1 ")
    #expect(compact == spaced)
    #expect(compact.row1 == Vector3(-1, 0, 0))
  }

  @Test(
    "Malformed matrices are rejected with a reason",
    arguments: [
      ("1, 0, 0; 0, 1, 0", "3 rows"),
      ("1, 0; 0, 1, 0; 0, 0, 1", "row 1 has 2 values"),
      ("1, 0, 0; 0, x, 0; 0, 0, 1", "bad number 'x'"),
      ("1, 0, 0; 0, 0, 0; 0, 0, 1", "row 2 is all zeros"),
      ("1, 0, 0; 0, 1, 0; 0, 0, nan", "bad number 'nan'"),
      ("", "3 rows"),
    ])
  func rejects(text: String, reason: String) {
    #expect {
      try MountMatrix.parse(text)
    } throws: { error in
      (error as? ValueError)?.message.contains(reason) == true
    }
  }

  @Test("Formatting gives back the text a matrix was parsed from")
  func formatRoundTrip() throws {
    let text = "0, 1, 0; -1, 0, 0; 0, 0, 1"
    #expect(MountMatrix.format(try MountMatrix.parse(text)) == text)
  }

  @Test("The first candidate that parses wins, and rejected ones are reported with their source")
  func candidateOrder() {
    let choice = MountMatrixChoice(candidates: [
      MountMatrixCandidate(source: .udev, text: "garbage"),
      MountMatrixCandidate(source: .sysfs("in_accel_mount_matrix"), text: "0, 1, 0; -1, 0, 0; 0, 0, 1"),
      MountMatrixCandidate(source: .sysfs("mount_matrix"), text: "1, 0, 0; 0, 1, 0; 0, 0, 1"),
    ])
    #expect(choice.source == .sysfs("in_accel_mount_matrix"))
    #expect(choice.matrix.row0 == Vector3(0, 1, 0))
    #expect(choice.warnings.count == 1)
    #expect(choice.warnings[0].contains("udev ACCEL_MOUNT_MATRIX"))
  }

  @Test("With no candidate the identity is used")
  func identityFallback() {
    let choice = MountMatrixChoice(candidates: [])
    #expect(choice.matrix == .identity)
    #expect(choice.source == .identity)
    #expect(choice.warnings.isEmpty)
  }

  @Test("A matrix that is not orthonormal is used but warned about")
  func notOrthonormal() {
    let choice = MountMatrixChoice(candidates: [
      MountMatrixCandidate(source: .option, text: "2, 0, 0; 0, 1, 0; 0, 0, 1")
    ])
    #expect(choice.source == .option)
    #expect(choice.matrix.row0 == Vector3(2, 0, 0))
    #expect(choice.warnings.count == 1)
    #expect(choice.warnings[0].contains("not orthonormal"))
  }

  @Test("Rotations are orthonormal with determinant 1, mirrors have determinant -1")
  func determinant() throws {
    let rotation = try MountMatrix.parse("0, 1, 0; -1, 0, 0; 0, 0, 1")
    #expect(rotation.isOrthonormal())
    #expect(abs(rotation.determinant - 1) < 1e-12)
    let mirror = try MountMatrix.parse("-1, 0, 0; 0, 1, 0; 0, 0, 1")
    #expect(abs(mirror.determinant + 1) < 1e-12)
  }
}
