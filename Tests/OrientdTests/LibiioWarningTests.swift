import Foundation
import Testing

@Suite("libiio's own warnings during buffered capture", .scratch)
struct LibiioWarningTests {
  @Test(
    "libiio's 'WARNING: High-speed mode not enabled' reaches the log as a library message, never bare on stderr"
  )
  func highSpeedWarningIsRouted() throws {
    for device in [FakeDevice.bufferedAccelerometer(), .scanOnlyAccelerometer()] {
      for verbose in [false, true] {
        let run = try FakeSensorRun(
          devices: [device], arguments: bufferArguments + (verbose ? ["--verbose"] : []), bufferFIFO: true)
        #expect(run.process.waitFor("capture mode buffer", inStderr: true), "\(run.process.stderr)")
        run.writeScans([(256, 0, 0)])
        #expect(run.process.waitForLines(2).map(dropTime) == ["device left-up", "orientation left-up"])
        #expect(run.stop() == 0)
        let lines = run.process.stderr.split(separator: "\n")
        // libiio prints it when the buffer is opened, before capture starts: it is in by now.
        #expect(
          !lines.contains { $0.hasPrefix("WARNING:") }, "a bare libiio line on stderr: \(run.process.stderr)")
        #expect(
          lines.allSatisfy { $0.hasPrefix("orientd: ") },
          "a line that is not orientd's log: \(run.process.stderr)")
        let routed = lines.contains {
          $0 == "orientd: debug: library message: WARNING: High-speed mode not enabled"
        }
        #expect(routed == verbose, "verbose \(verbose): \(run.process.stderr)")
      }
    }
  }
}
