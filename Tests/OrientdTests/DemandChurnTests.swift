import Foundation
import Testing

/// Clients of another user that make the sampling demand flip as fast as they can: the sensor
/// must not be stopped and started with it, and the log must not follow every flip.
@Suite("Sampling demand churned by a local user", .scratch)
struct DemandChurnTests {
  @Test(
    "Subscriptions toggled thousands of times a second in laptop mode barely touch the sensor or the log"
  )
  func subscriptionChurn() throws {
    let directory = try Unprivileged.openDirectory(in: try Scratch.current())
    let socket = directory + "/s"
    let run = try FakeSensorRun(
      devices: [.bufferedAccelerometer()],
      arguments: [
        "--mode", "poll", "--interval", "200", "--socket", socket, "--state", directory + "/state",
      ])
    try #require(run.process.waitFor("info: orientation normal", inStderr: true), "\(run.process.stderr)")
    // Laptop mode at the default policy holds the screen normal: nothing needs the sensor.
    let mode = try runToCompletion([TestPaths.orientctl, "--socket", socket, "mode", "laptop"])
    try #require(mode.status == 0, "\(mode.stderr)")
    try #require(
      run.process.waitFor("nothing needs the sensor now", inStderr: true, timeout: startupPatience),
      "\(run.process.stderr)")
    // Stopped, the sampling thread has put the driver's rate back (after the main loop said so).
    try #require(waitUntil { run.read("sampling_frequency") == "5" }, "the rate was not restored")
    let writes = try FileWriteCounter(path: run.path("sampling_frequency"))
    let logLines = run.process.stderr.split(separator: "\n").count

    let flood = try runToCompletion(
      Unprivileged.attack("control-flood", [socket, "1", "3", "subscribe device|subscribe mode"]))
    // The premise: the demand really flipped, thousands of times.
    let replies = attackFigure("replies", in: flood.stdout).flatMap { Int($0) } ?? 0
    #expect(replies > 1000, "\(flood)")
    // The first flip resumes sampling (the rate raised once); the sensor is not stopped again
    // while the demand flips back within seconds. It stops once nothing has needed it for 5 s
    // after the flood's last flip, which a loaded machine may let pass before the count: then
    // the rate is put back once more, after the log said so (the count is taken first).
    let written = writes.count
    let lines = run.process.stderr.split(separator: "\n")
    let stops = lines.dropFirst(logLines).filter { $0.contains("nothing needs the sensor now") }.count
    #expect(stops <= 1, "the sensor was stopped \(stops) times during the churn")
    #expect(
      written <= 1 + stops, "sampling_frequency was written \(written) times, the sensor stopped \(stops)")
    let newLines = lines.count - logLines
    #expect(newLines <= 10, "\(newLines) log lines during the churn:\n\(run.process.stderr.suffix(3000))")
    #expect(run.stop() == 0)
  }
}
