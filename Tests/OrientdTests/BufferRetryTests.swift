import Foundation
import Testing

@Suite("A buffer that was silent at start is tried again", .scratch)
struct BufferRetryTests {
  /// orientd in auto mode polling every 20 ms on a sensor whose buffer stays silent, once it
  /// has given up on the first try; `trigger` gives the sensor a trigger of its own, as a
  /// sensor hub's accelerometer has.
  private func silentAtStart(trigger: Bool = true) throws -> FakeSensorRun {
    let run = try FakeSensorRun(
      devices: [.bufferedAccelerometer(raw: (0, -256, 0))]
        + (trigger ? [.trigger("accel_3d-dev0", number: 0)] : []),
      arguments: ["--dump", "--settle", "0", "--interval", "20", "--verbose"], bufferFIFO: true)
    #expect(
      run.process.waitFor(
        trigger
          ? "the buffer delivered no sample within 1 s; trying it again in 2 s"
          : "the buffer delivered no sample within 1 s and has no trigger; not trying it again",
        inStderr: true))
    return run
  }

  @Test(
    "Auto mode polls after a silent start, tries the buffer again after 2 s and then 4 s, and stops polling once it delivers"
  )
  func returnsToBuffer() throws {
    let run = try silentAtStart()
    #expect(run.process.waitForLines(2).map(dropTime) == ["device normal", "orientation normal"])
    // The first new try (after 2 s) stays silent too; the next comes 4 s later.
    #expect(
      run.process.waitFor("the buffer stayed silent again; polling goes on, next try in 4 s", inStderr: true))
    #expect(run.read("buffer/enable") == "0", "the silent buffer must be closed between tries")
    // Waiting in the FIFO for the next try: left-up, where polling says normal.
    run.writeScans([(256, 0, 0)])
    #expect(
      run.process.waitFor("capture mode buffer: the buffer tried again delivered a scan", inStderr: true))
    #expect(
      run.process.waitForLines(4).suffix(2).map(dropTime) == ["device left-up", "orientation left-up"])
    #expect(run.read("buffer/enable") == "1")

    // Polling has stopped: the next change comes from the buffer, and nothing reads the raw files.
    try run.markUnread("in_accel_x_raw")
    run.writeScans([(0, 256, 0)])
    #expect(
      run.process.waitForLines(6).suffix(2).map(dropTime) == ["device bottom-up", "orientation bottom-up"])
    #expect(!run.hasBeenRead("in_accel_x_raw"), "polling went on after the buffer took over")
    #expect(run.stop() == 0)
    #expect(run.read("buffer/enable") == "0")
    #expect(run.read("sampling_frequency") == "5")

    // Each switch is logged once, at info; the silent tries only at debug.
    let lines = run.process.stderr.split(separator: "\n")
    #expect(lines.filter { $0.contains("info: capture mode poll") }.count == 1, "\(run.process.stderr)")
    #expect(lines.filter { $0.contains("info: capture mode buffer") }.count == 1, "\(run.process.stderr)")
    #expect(lines.filter { $0.contains("warning:") }.isEmpty, "\(run.process.stderr)")
  }

  @Test(
    "A silent buffer is tried again at the first poll that sees the device move, not at the end of its wait")
  func retriesOnMovement() throws {
    let run = try silentAtStart()
    #expect(run.process.waitForLines(2).map(dropTime) == ["device normal", "orientation normal"])
    // A sensor hub that sends only on change: its scan is waiting when the device moves.
    run.writeScans([(256, 0, 0)])
    try run.setRaw(256, 0, 0)
    #expect(
      run.process.waitFor("capture mode buffer: the buffer tried again delivered a scan", inStderr: true))
    #expect(run.read("buffer/enable") == "1")
    // The try came with the first poll that read a new position, not 2 s (100 polls) later:
    // no other poll comes between that poll's sample line and the try.
    let lines = run.process.stderr.split(separator: "\n").map(String.init)
    let tried = try #require(
      lines.firstIndex { $0.contains("the device moved: trying the buffer again now") }, "\(lines)")
    let polls = lines.indices.filter { lines[$0].contains("debug: sample") }
    let firstMoved = polls.first { !lines[$0].contains(" 0.000 -1.000 0.000 ") }
    #expect(firstMoved != nil && polls.last { $0 < tried } == firstMoved, "\(lines)")
    #expect(run.stop() == 0)
  }

  @Test("A silent buffer with no trigger is not tried again when the device moves: polling goes on")
  func untriggeredBufferIsLeft() throws {
    let run = try silentAtStart(trigger: false)
    #expect(run.process.waitForLines(2).map(dropTime) == ["device normal", "orientation normal"])
    try run.setRaw(256, 0, 0)
    #expect(run.process.waitForLines(4).suffix(2).map(dropTime) == ["device left-up", "orientation left-up"])
    // A try would be logged while the first poll that read the move was handled, before the
    // sample line of the next poll: three polls of the new reading leave it room to show.
    #expect(run.process.waitFor(" 1.000 0.000 0.000 ", inStderr: true, count: 3), "\(run.process.stderr)")
    #expect(!run.process.stderr.contains("trying the buffer again"), "\(run.process.stderr)")
    #expect(run.read("buffer/enable") == "0")
    #expect(run.stop() == 0)
  }

  @Test("A still device leaves the silent buffer to its wait: polling alone triggers no try")
  func stillDeviceWaits() throws {
    let run = try silentAtStart()
    // Many polls of the same reading, up to the try that the wait brings.
    #expect(
      run.process.waitFor("the buffer stayed silent again; polling goes on, next try in 4 s", inStderr: true))
    #expect(!run.process.stderr.contains("the device moved"), "\(run.process.stderr)")
    #expect(run.stop() == 0)
  }
}
