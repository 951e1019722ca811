import Foundation
import Testing

/// An `in_accel_scale` 26 times too large: 256 raw units read 26 g instead of 1 g.
private let scale26 = "0.995982"

/// The `--verbose` sample lines of `text`.
private func sampleLines(_ text: Substring) -> [Substring] {
  text.split(separator: "\n").filter { $0.contains(" sample ") }
}

@Suite("A sensor whose every sample fails the magnitude gate", .scratch)
struct MagnitudeGateTests {
  @Test(
    "A 26 times too large scale is named in one warning, the device still turns on the socket, a shake is still rejected, and a corrected scale wins"
  )
  func wrongScale() throws {
    let device = FakeDevice.accelerometer(raw: (0, -256, 0)).with(attribute: "in_accel_scale", scale26)
    let (run, socket) = try servingFakeSensor(
      [device], extra: ["--interval", "20", "--settle", "100", "--verbose"], ready: "info: orientation normal"
    )

    let stderr = run.process.stderr
    let warnings = stderr.split(separator: "\n").filter { $0.contains("instead of 1 g") }
    #expect(warnings.count == 1, "\(warnings)")
    let warning = try #require(warnings.first)
    #expect(
      warning.contains("warning: iio:device0 (accel_3d): its samples have held a steady 26.00 g for 2 s"))
    #expect(
      warning.contains(
        "the scale it reports, 0.995982 (in_accel_scale), is likely wrong: 0.038307 would give 1 g"),
      "\(warning)")
    // Before it, every sample was thrown away, and --verbose says so instead of proposing.
    let before = try #require(stderr.range(of: String(warning)))
    let rejected = sampleLines(stderr[..<before.lowerBound])
    #expect(!rejected.isEmpty)
    #expect(
      rejected.allSatisfy { $0.hasSuffix("rejected by the magnitude gate (magnitude 26.000 g)") },
      "\(rejected.prefix(3))")
    #expect(
      sampleLines(stderr[before.upperBound...]).contains {
        $0.hasSuffix("proposes normal (divided by 26.00 g)")
      })

    let monitor = try TestProcess([TestPaths.orientctl, "--socket", socket, "monitor"])
    #expect(monitor.waitForLines(greetingLines) == normalSnapshot)
    try run.setRaw(256, 0, 0)
    #expect(monitor.waitForLines(8).suffix(2) == ["device left-up", "orientation left-up"])
    try run.setRaw(0, 256, 0)
    #expect(monitor.waitForLines(10).suffix(2) == ["device bottom-up", "orientation bottom-up"])
    try run.setRaw(0, 0, -256)
    #expect(monitor.waitForLines(11).last == "device face-up")

    // A shake towards right-up at 1.53 g (39.66 g read), longer than the settle time: rejected,
    // nothing changes.
    try run.setRaw(-300, 0, -250)
    #expect(try run.waitForPolls(20))
    #expect(
      run.process.waitFor(
        "-30.469 0.000 -25.390 rejected by the magnitude gate (magnitude 39.661 g, 1.525 once divided by 26.00 g)",
        inStderr: true))
    let state = try runToCompletion([TestPaths.orientctl, "--socket", socket, "get", "device"])
    #expect(state.stdout == "face-up\n")
    #expect(monitor.stdoutLines.count == 11, "a shake must not publish: \(monitor.stdoutLines)")
    try run.setRaw(-256, 0, 0)
    #expect(monitor.waitForLines(13).suffix(2) == ["device right-up", "orientation right-up"])

    // The scale is corrected, and the sensor re-attached so that orientd reads it again.
    try run.write("in_accel_scale", "0.038307")
    try run.unplug()
    #expect(monitor.waitForLines(14).last == "sensor offline")
    try run.plug()
    #expect(monitor.waitForLines(15).last == "sensor online")
    // The sensor set up again is measured afresh: its samples are used as they are at once.
    try #require(run.process.waitFor("scale 0.038307 (in_accel_scale)", inStderr: true))
    try run.setRaw(0, -256, 0)
    // Lines 16 and 17: the device, then the screen it turns.
    #expect(monitor.waitForLines(17).suffix(2) == ["device normal", "orientation normal"])
    let after = try #require(run.process.stderr.range(of: "scale 0.038307 (in_accel_scale)"))
    let lines = sampleLines(run.process.stderr[after.upperBound...])
    #expect(lines.contains { $0.hasSuffix("proposes normal") }, "\(lines.suffix(3))")
    #expect(!lines.contains { $0.contains("divided by") })
    #expect(occurrences(of: "instead of 1 g", in: run.process.stderr) == 1, "warned once")
    monitor.signal(SIGTERM)
    #expect(monitor.waitForExit() != nil)
    #expect(run.stop() == 0)
  }

  @Test("A replayed trace recorded with a 26 times too large scale classifies too, through the same path")
  func wrongScaleReplay() throws {
    var trace = TraceBuilder(stepMilliseconds: 100)
    trace.hold(0, -26, 0, count: 30)
    trace.hold(26, 0, 0, count: 10)
    // A shake at 1.6 times the steady magnitude, longer than the settle time: not classified.
    trace.hold(0, 41.6, 0, count: 5)
    trace.hold(26, 0, 0, count: 2)
    let path = try trace.write()
    let replay = try runToCompletion([TestPaths.orientd, "--dump", "--settle", "300", "--replay", path])
    #expect(replay.status == 0)
    #expect(
      replay.stdout.split(separator: "\n").map(String.init) == [
        "2.300 device normal", "2.300 orientation normal", "3.300 device left-up",
        "3.300 orientation left-up",
      ])
    #expect(
      replay.stderr.contains(
        "warning: samples have held a steady 26.00 g for 2 s instead of 1 g, so each fails the magnitude gate; "
          + "a wrong scale is the likely cause; classifying them divided by 26.00 g until they measure 1 g again"
      ),
      "\(replay.stderr)")
  }
}
