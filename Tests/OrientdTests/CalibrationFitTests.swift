import Foundation
import Testing

/// What `orientctl calibrate` prints for fits that are not a plain axis-aligned rotation.
@Suite("calibrate: mirrored fits and rounded matrices", .scratch)
struct CalibrationFitTests {
  /// Runs `calibrate --yes` on the laptop sensor, giving `raw` for the three poses in turn.
  func calibrate(_ raw: [(Int, Int, Int)], json: Bool = false) throws -> TestProcess {
    let (run, socket) = try laptopDaemon()
    // The first pose is in place before calibrate starts, so it cannot take the one before.
    try run.setRaw(raw[0].0, raw[0].1, raw[0].2)
    #expect(try run.waitForPolls(5))
    let client = try TestProcess(
      [TestPaths.orientctl, "--socket", socket, "calibrate", "--yes"] + (json ? ["--json"] : []))
    for (step, (x, y, z)) in raw.enumerated() {
      try run.setRaw(x, y, z)
      #expect(client.waitFor("   measured (", inStderr: true, count: step + 1), "\(client.stderr)")
    }
    #expect(client.waitForExit() != nil)
    #expect(run.stop() == 0)
    return client
  }

  @Test("Poses that fit only a mirrored matrix are refused with 65 and an explanation, not offered as a fix")
  func mirroredFitRefused() throws {
    // Normal and left-up as on the rotated laptop, then the screen down where up was asked.
    let client = try calibrate([rawFor["normal"]!, rawFor["left-up"]!, rawFor["face-down"]!])
    #expect(client.waitForExit() == 65, "\(client.stderr)")
    #expect(client.stderr.contains("mirror"), "\(client.stderr)")
    #expect(client.stderr.contains("determinant -1"), "\(client.stderr)")
    #expect(!client.stdout.contains("here is the fix"), "\(client.stdout)")
    #expect(!client.stdout.contains("ACCEL_MOUNT_MATRIX"), "\(client.stdout)")
  }

  @Test("A fit that is not axis-aligned is printed rounded as hwdb entries write matrices")
  func fittedMatrixRounded() throws {
    // The sensor turned 45 degrees in the screen's plane: no signed permutation is near.
    let client = try calibrate([(181, 181, 0), (-181, 181, 0), (0, 0, -256)])
    #expect(client.waitForExit() == 0, "\(client.stderr)")
    let output = client.stdout
    #expect(output.contains("WARNING: the fit is "), "\(output)")
    let entry = try #require(
      output.split(separator: "\n").first { $0.hasPrefix(" ACCEL_MOUNT_MATRIX=") }, "\(output)")
    // At most three decimals, no negative zero, as the entries of systemd's 60-sensor.hwdb.
    let numbers = entry.dropFirst(" ACCEL_MOUNT_MATRIX=".count).split(whereSeparator: { ",; ".contains($0) })
    #expect(numbers.count == 9, "\(entry)")
    for number in numbers {
      let decimals = number.split(separator: ".").dropFirst().first?.count ?? 0
      #expect(decimals <= 3, "\(number) in \(entry)")
      #expect(number != "-0", "\(entry)")
      #expect(Double(number) != nil, "\(number) in \(entry)")
    }
    #expect(entry.contains("0.707"), "\(entry)")
    #expect(output.contains("mount-matrix = " + entry.dropFirst(" ACCEL_MOUNT_MATRIX=".count)), "\(output)")
  }
}
