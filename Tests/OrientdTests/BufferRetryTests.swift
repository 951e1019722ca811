import Foundation
import Testing

@Suite("A buffer that was silent at start is tried again", .scratch)
struct BufferRetryTests {
  @Test(
    "Auto mode polls after a silent start, tries the buffer again after 2 s and then 4 s, and stops polling once it delivers"
  )
  func returnsToBuffer() throws {
    let run = try FakeSensorRun(
      devices: [.bufferedAccelerometer(raw: (0, -256, 0))],
      arguments: ["--dump", "--settle", "0", "--interval", "20", "--verbose"], bufferFIFO: true)
    #expect(
      run.process.waitFor("the buffer delivered no sample within 1 s; trying it again in 2 s", inStderr: true)
    )
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
}
