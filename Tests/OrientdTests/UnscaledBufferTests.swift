import Foundation
import Testing

/// The buffered accelerometers of iio-sensor-proxy's own test suite: scan elements with no
/// scale attribute at all, so their raw counts (256 to the g here) are taken as m/s² and read
/// about 26 g.
@Suite("Buffered accelerometers as iio-sensor-proxy's test suite builds them", .scratch)
struct UnscaledBufferTests {
  /// Whether orientd's log published `device` before any warning that the samples hold a
  /// steady magnitude far from 1 g: it did not wait 2 s for that magnitude to be learned.
  private func publishedBeforeLearning(_ stderr: String, device: String) -> Bool {
    guard let published = stderr.range(of: "info: device \(device)") else { return false }
    guard let learned = stderr.range(of: "instead of 1 g") else { return true }
    return published.lowerBound < learned.lowerBound
  }

  @Test("No scale, counts in the hundreds: a short recording turns orientd at once, normal, left-up, normal")
  func shortRecordingTurnsAtOnce() throws {
    let daemon = try WatchedDaemon(
      [.testBufferedAccelerometer(rawFiles: false), .trigger("accel_3d-dev0", number: 0)], bufferFIFO: true)
    let run = daemon.run
    #expect(run.process.waitFor("capture mode buffer", inStderr: true), "\(run.process.stderr)")
    // One scan each: far less than the 2 s a steady magnitude takes to learn.
    try run.writeScans32([(0, -256, 0)])
    #expect(daemon.waitFor("device", "normal"), "\(run.process.stderr)")
    try run.writeScans32([(256, 0, 0)])
    #expect(daemon.waitFor("device", "left-up"))
    try run.writeScans32([(0, -256, 0)])
    #expect(daemon.waitFor("device", "normal"))
    #expect(daemon.all("device") == ["normal", "left-up", "normal"])
    #expect(daemon.all("orientation") == ["normal", "left-up", "normal"])
    #expect(publishedBeforeLearning(run.process.stderr, device: "normal"), "\(run.process.stderr)")
    #expect(daemon.stop() == 0)
  }

  @Test("No scale, counts of about 1000 to the g as iio-sensor-proxy's recordings hold: it turns")
  func countsInTheThousandsTurn() throws {
    let daemon = try WatchedDaemon(
      [.testBufferedAccelerometer(rawFiles: false), .trigger("accel_3d-dev0", number: 0)], bufferFIFO: true)
    let run = daemon.run
    #expect(run.process.waitFor("capture mode buffer", inStderr: true), "\(run.process.stderr)")
    // About 93 g on an axis if the counts were m/s²: refused before, as out of range.
    try run.writeScans32([(103, -919, -385)])
    #expect(daemon.waitFor("device", "normal"), "\(run.process.stderr)")
    try run.writeScans32([(960, 120, -250)])
    #expect(daemon.waitFor("device", "left-up"), "\(run.process.stderr)")
    #expect(daemon.all("device") == ["normal", "left-up"])
    #expect(!run.process.stderr.contains("out of range"), "\(run.process.stderr)")
    #expect(daemon.stop() == 0)
  }

  @Test(
    "A buffer that cannot be used, on a sensor with raw attributes: polling takes over, info says why, and raw counts classify at once"
  )
  func unusableBufferFallsBackToPolling() throws {
    let device = FakeDevice.testBufferedAccelerometer(rawFiles: true, raw: (0, -256, 0))
    // The node is a regular file holding a scan, as a test bed without the kernel's character
    // device may make it: it can be opened, not watched.
    let node = "\"$UMOCKDEV_DIR/dev/\(device.id)\""
    let daemon = try WatchedDaemon(
      [device, .trigger("accel_3d-dev0", number: 0)],
      prepare:
        "rm -f \(node) && printf '\\000\\000\\000\\000\\000\\001\\000\\000\\000\\000\\000\\000' > \(node)")
    let run = daemon.run
    #expect(daemon.waitFor("device", "normal"), "\(run.process.stderr)")
    #expect(publishedBeforeLearning(run.process.stderr, device: "normal"), "\(run.process.stderr)")
    let client = try TestClient(path: daemon.socket)
    _ = client.readLines(greetingLines)
    client.send("info\n")
    let info = client.readLines(through: "ok")
    #expect(info.contains { $0.hasPrefix("info capture poll every 20 ms") }, "\(info)")
    #expect(
      info.contains {
        $0.hasPrefix("info capture-reason buffered capture is unusable: cannot watch its node for scans")
      }, "\(info)")
    try run.setRaw(256, 0, 0)
    #expect(daemon.waitFor("device", "left-up"))
    // 2 s of a steady 26 g: the gate takes over relative to it, and the log says what came before.
    #expect(
      run.process.waitFor(
        "with no scale they were classified by their direction alone meanwhile", inStderr: true),
      "\(run.process.stderr)")
    #expect(daemon.stop() == 0)
  }
}
