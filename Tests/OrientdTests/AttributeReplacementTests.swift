import Foundation
import Testing

/// The `sample` lines of a `--verbose` log: `sample <t> <x> <y> <z> proposes <o>`.
private func sampleLines(_ log: String) -> [[Substring]] {
  log.split(separator: "\n").compactMap { line in
    guard let start = line.range(of: "debug: sample ") else { return nil }
    return Array(line[start.upperBound...].split(separator: " ").dropFirst().prefix(3))
  }
}

@Suite("Attributes replaced by a new file", .scratch)
struct AttributeReplacementTests {
  @Test(
    "A value written as a new file is read at the next poll, whichever axis changes alone",
    arguments: [
      ((0, -256, 0), "in_accel_y_raw", "256", ["0.000", "1.000", "0.000"], "bottom-up"),
      ((0, 0, -256), "in_accel_z_raw", "256", ["0.000", "0.000", "1.000"], "face-down"),
    ])
  func replacedAttributeIsSeenAtTheNextPoll(
    start: (Int, Int, Int), file: String, value: String, expected: [String], orientation: String
  ) throws {
    let run = try FakeSensorRun(
      devices: [.accelerometer(raw: start)],
      arguments: ["--dump", "--mode", "poll", "--interval", "50", "--settle", "0", "--verbose"])
    #expect(run.process.waitForLines(1).count >= 1, "no first orientation: \(run.process.stderr)")
    let before = sampleLines(run.process.stderr).count
    try #require(before > 0, "orientd logs no samples: \(run.process.stderr)")
    // FakeSensorRun.write replaces the file, as umockdev's set_attribute does.
    try run.write(file, value)
    // A poll may have read the old file just before the rename; the one after it must not.
    var samples = sampleLines(run.process.stderr)
    let deadline = Date().addingTimeInterval(10)
    while samples.count < before + 2, Date() < deadline {
      usleep(10_000)
      samples = sampleLines(run.process.stderr)
    }
    try #require(samples.count >= before + 2, "orientd stopped polling: \(run.process.stderr)")
    #expect(
      samples[before + 1].map(String.init) == expected, "samples after the change: \(samples[before...])")
    #expect(run.process.waitFor("device \(orientation)"), "stdout: \(run.process.stdout)")
    #expect(run.stop() == 0)
  }
}
