import Foundation
import Testing

/// The `--verbose` sample lines on stderr: each poll's time and what it proposed.
private func samples(_ stderr: String) -> [(time: Double, proposes: String)] {
  stderr.split(separator: "\n").compactMap { line in
    guard let range = line.range(of: "debug: sample ") else { return nil }
    let fields = line[range.upperBound...].split(separator: " ")
    guard let time = fields.first.flatMap({ Double($0) }), let proposes = fields.firstIndex(of: "proposes")
    else { return nil }
    return (time, fields[(proposes + 1)...].joined(separator: " "))
  }
}

/// The time of a `--dump` line such as `1.617 device left-up`.
private func time(of line: String) -> Double? { line.split(separator: " ").first.flatMap { Double($0) } }

/// Raw readings of an upright device tilted `degrees` from normal towards left-up (256 is 1 g).
private func tilted(_ degrees: Double) -> (Int, Int, Int) {
  let radians = degrees * .pi / 180
  return (Int((256 * sin(radians)).rounded()), Int((-256 * cos(radians)).rounded()), 0)
}

@Suite("Polling faster while a change is pending", .scratch)
struct PendingSamplingTests {
  /// A long interval against a long settle time, so that polls at the interval and polls while
  /// pending cannot be taken for each other. Without the stillness rule: a step written to the
  /// fake sensor rests at once, and would be taken after 40 ms (`StillSettleTests`).
  static let arguments = [
    "--dump", "--verbose", "--mode", "poll", "--interval", "2000", "--settle", "1000", "--still", "off",
  ]

  @Test(
    "A pending change is polled many times within one interval until its settle time decides, then polling is at the interval again"
  )
  func fastWhilePending() throws {
    let run = try FakeSensorRun(devices: [.accelerometer(raw: (0, -256, 0))], arguments: Self.arguments)
    #expect(run.process.waitForLines(2).map(dropTime) == ["device normal", "orientation normal"])

    try run.setRaw(256, 0, 0)
    let lines = run.process.waitForLines(4)
    try #require(lines.suffix(2).map(dropTime) == ["device left-up", "orientation left-up"], "\(lines)")
    let settled = try #require(time(of: lines[2]))
    // The settle time (1 s) is half an interval: at the interval, the change would be proposed
    // by one poll and decided by the next, two polls in all. While pending, one every 20 ms.
    let proposing = samples(run.process.stderr).filter { $0.proposes == "left-up" && $0.time <= settled }
    #expect(proposing.count >= 10, "polls proposing left-up until it settled: \(proposing.map(\.time))")

    // Then back at the interval: the polls after the settle keep an interval's pace (a timer never
    // fires early, and one that fired late does not move the next; the times are orientd's own).
    #expect(
      waitUntil { samples(run.process.stderr).filter { $0.time > settled }.count >= 2 },
      "\(run.process.stderr)")
    let after = samples(run.process.stderr).filter { $0.time >= settled }.prefix(3).map(\.time)
    #expect(
      after.enumerated().allSatisfy { index, time in time - after[0] >= 1.99 * Double(index) },
      "polls after settling: \(after)")
    #expect(run.stop() == 0)
  }

  @Test("A pending change that goes back before its settle time ends the fast polling, and nothing changes")
  func fastUntilCancelled() throws {
    let run = try FakeSensorRun(devices: [.accelerometer(raw: (0, -256, 0))], arguments: Self.arguments)
    #expect(run.process.waitForLines(2).map(dropTime) == ["device normal", "orientation normal"])

    try run.setRaw(256, 0, 0)
    #expect(run.process.waitFor("proposes left-up", inStderr: true))
    try run.setRaw(0, -256, 0)
    #expect(run.process.waitFor("polling every 2000 ms (the device is handled)", inStderr: true))
    let back = try #require(
      samples(run.process.stderr).last { $0.proposes == "left-up" }?.time, "\(run.process.stderr)")
    // Going back moved the device: 20 ms polls for 60 ms (`PollPace.movingWindow`), then
    // three polls at the interval.
    #expect(waitUntil { samples(run.process.stderr).filter { $0.time > back + 0.1 }.count >= 3 })
    let after = samples(run.process.stderr).filter { $0.time > back + 0.1 }.prefix(3).map(\.time)
    #expect(after.dropFirst().count == 2)
    // At the interval, not at 20 ms: a timer that fired late makes the next gap shorter (it
    // keeps its grid), so each gap is well over a second rather than exactly 2 s.
    #expect(zip(after, after.dropFirst()).allSatisfy { $1 - $0 >= 1.5 }, "polls after going back: \(after)")
    #expect(run.stop() == 0)
    #expect(run.process.stdoutLines.map(dropTime) == ["device normal", "orientation normal"])
  }

  @Test("While polling fast, a wobble around 45 degrees and a shake through left-up change nothing")
  func noFlaps() throws {
    // The default interval; a settle time of 1 s rather than 200 ms, so that a test held up
    // between a poll and its next write never holds a reading that long; and no stillness
    // rule, since each reading here rests until it is polled (a shake that rests 40 ms in
    // left-up is left-up: `StillSettleTests` shows a real shake never rests).
    let run = try FakeSensorRun(
      devices: [.accelerometer(raw: (0, -256, 0))],
      arguments: ["--dump", "--verbose", "--mode", "poll", "--settle", "1000", "--still", "off"])
    #expect(run.process.waitForLines(2).map(dropTime) == ["device normal", "orientation normal"])
    // Each reading is held until orientd has polled it.
    for index in 0..<20 {
      let (x, y, z) = tilted(index % 2 == 0 ? 41 : 49)
      try run.setRaw(x, y, z)
      try #require(try run.waitForPolls())
    }
    // The shake: gravity plus jolts, passing through left-up (1 g along x) once in each burst.
    let burst = [(461, 0, 0), (0, 435, 77), (-384, -51, 0), (256, 0, 0), (51, 538, 0)]
    for index in 0..<50 {
      let (x, y, z) = burst[index % burst.count]
      try run.setRaw(x, y, z)
      try #require(try run.waitForPolls())
    }
    try run.setRaw(0, -256, 0)
    try #require(try run.waitForPolls(3))
    // The shake's left-up sample made a change pending: the fast polling ran, and still nothing flapped.
    #expect(run.process.stderr.contains("a change is pending: polling every 20 ms"), "\(run.process.stderr)")
    #expect(run.stop() == 0)
    #expect(run.process.stdoutLines.map(dropTime) == ["device normal", "orientation normal"])
  }
}

@Suite("Polling that follows the device on a umockdev accelerometer", .scratch)
struct RestingPaceTests {
  @Test(
    "Still for 10 s, the sensor is polled at the resting interval; a turn seen there is followed every 20 ms and taken once still"
  )
  func restsThenFollowsATurn() throws {
    // A resting interval far from the interval and from the 20 ms of a moving device, so that
    // each pace shows in the poll times orientd logs (its own sample times).
    let run = try FakeSensorRun(
      devices: [.accelerometer(raw: (0, -256, 0))],
      // A settle time of a second, so that only the stillness rule can take the turn sooner,
      // whatever a loaded machine does to the 20 ms polls.
      arguments: [
        "--dump", "--verbose", "--mode", "poll", "--interval", "100", "--resting-interval", "700", "--settle",
        "1000", "--still", "40",
      ])
    #expect(run.process.waitForLines(2).map(dropTime) == ["device normal", "orientation normal"])
    // Handled for 10 s from the start, then resting: two polls 700 ms apart show it.
    #expect(
      waitUntil(timeout: 30) {
        let times = samples(run.process.stderr).map(\.time).filter { $0 > 10.5 }
        return times.count >= 3
      }, "\(run.process.stderr)")
    let resting = samples(run.process.stderr).map(\.time).filter { $0 > 10.5 }.prefix(3)
    // A repeating timer keeps its grid: a poll that fired late makes the next gap shorter, never
    // the sum of two.
    #expect(
      zip(resting, resting.dropFirst()).allSatisfy { $1 - $0 > 0.5 && $1 - $0 < 1.0 }
        && resting.last! - resting.first! >= 1.39,
      "polls at rest: \(Array(resting))")
    let before = samples(run.process.stderr).count

    // A step to left-up (the turn seen at one resting poll): 20 ms polls until it is still for
    // 40 ms, then taken.
    try run.setRaw(256, 0, 0)
    let lines = run.process.waitForLines(4)
    try #require(lines.suffix(2).map(dropTime) == ["device left-up", "orientation left-up"], "\(lines)")
    let taken = try #require(time(of: lines[2]))
    let proposing = samples(run.process.stderr).dropFirst(before).filter { $0.proposes == "left-up" }
    let first = try #require(proposing.first?.time)
    #expect(proposing.filter { $0.time <= taken }.count >= 2, "\(proposing.map(\.time))")
    #expect(taken - first > 0.039 && taken - first < 0.9, "taken \(taken), first seen \(first)")
    // Handled again: polls at the interval (a late poll shortens the next gap, so the pace
    // shows over several).
    #expect(
      waitUntil { samples(run.process.stderr).filter { $0.time > taken + 0.1 }.count >= 6 },
      "\(run.process.stderr)")
    let after = samples(run.process.stderr).filter { $0.time > taken + 0.1 }.prefix(6).map(\.time)
    let mean = (after[5] - after[0]) / 5
    #expect(mean > 0.07 && mean < 0.4, "polls after: \(after)")
    #expect(run.stop() == 0)
  }
}
