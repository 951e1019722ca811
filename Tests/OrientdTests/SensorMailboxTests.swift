import Foundation
import Testing

@Suite("The sensor's mailbox under subscribers that never read", .scratch)
struct SensorMailboxTests {
  @Test(
    "With 250 sample subscribers that never read, samples are dropped, bounded, and no orientation change is lost"
  )
  func hoardersDoNotDelayChanges() throws {
    // nobody must reach the socket.
    let directory = try Unprivileged.openDirectory(in: try Scratch.current())
    // 1 kHz on average for 10 s, turning a quarter clockwise every 500 ms: a lost change shows
    // as a skip. The samples come in bursts of 100 at one time, 100 ms apart, as a sensor hub
    // that batches its scans delivers them: the sampling thread posts each burst at once, more
    // than the 64 samples its mailbox holds, so the main loop falls behind however fast it is.
    let cycle: [(name: String, gravity: (Double, Double, Double))] = [
      ("normal", (0, -1, 0)), ("left-up", (1, 0, 0)), ("bottom-up", (0, 1, 0)), ("right-up", (-1, 0, 0)),
    ]
    var trace = TraceBuilder(stepMilliseconds: 0)
    for step in 0..<20 {
      let gravity = cycle[step % 4].gravity
      for _ in 0..<5 {
        trace.hold(gravity.0, gravity.1, gravity.2, count: 100)
        trace.wait(milliseconds: 100)
      }
    }
    let socket = directory + "/s"
    let daemon = try TestProcess([
      TestPaths.orientd, "--replay", try trace.write(), "--settle", "0", "--max-clients", "300",
      // All 250 from one user: nobody's share of the slots must not cap the attack.
      "--max-clients-per-user", "300", "--socket",
      socket, "--state", directory + "/state",
    ])
    try #require(daemon.waitFor("listening on", inStderr: true), "orientd did not start: \(daemon.stderr)")
    let hoarders = try TestProcess(try Unprivileged.attack("sample-hoarders", [socket, "250"]))
    try #require(hoarders.waitFor("connections 250"), "the subscribers did not connect: \(hoarders.stderr)")

    let subscriber = try TestClient(path: socket)
    var devices: [String] = []
    func take(_ line: String) {
      if line.hasPrefix("device ") { devices.append(String(line.dropFirst("device ".count))) }
    }
    try #require(
      waitUntil {
        while let line = subscriber.readLine(timeout: 0.01) { take(line) }
        return daemon.stderr.contains("finished; keeping the last state")
      }, "the replay did not finish: \(daemon.stderr)")
    // What is still on its way after the replay ended, up to the answer to a ping.
    subscriber.linesBeforePong().forEach(take)
    // The premise: the main loop fell behind the sensor, and the samples waiting were capped.
    #expect(
      daemon.stderr.contains(
        "the main loop is behind the sensor: dropped the oldest waiting sample (at most 64 wait)"),
      "the main loop never fell behind: \(daemon.stderr)")
    // Every change arrived, in order, up to the last one of the trace.
    let names = cycle.map(\.name)
    try #require(devices.count >= 10, "too few changes seen: \(devices)")
    for (previous, next) in zip(devices, devices.dropFirst()) {
      let index = try #require(
        names.firstIndex(of: previous), "not a change of the trace: \(previous) in \(devices)")
      let expected = names[(index + 1) % 4]
      #expect(next == expected, "after \(previous) came \(next): a change was lost (\(devices))")
    }
    #expect(devices.last == "right-up")
    hoarders.kill()
    daemon.signal(SIGTERM)
    #expect(daemon.waitForExit() == 0)
  }
}
