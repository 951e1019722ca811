import Foundation
import Testing

/// Wake-ups of orientd's sampling thread so far: its voluntary and involuntary context
/// switches, from /proc/PID/task/TID/status; nil when the thread is not found.
private func samplingThreadWakeUps(of pid: pid_t) -> Int? {
  let tasks = "/proc/\(pid)/task"
  guard let threads = try? FileManager.default.contentsOfDirectory(atPath: tasks) else { return nil }
  for thread in threads where fileText("\(tasks)/\(thread)/comm") == "orientd-sensor\n" {
    let counts = fileText("\(tasks)/\(thread)/status").split(separator: "\n").compactMap { line -> Int? in
      guard line.hasPrefix("voluntary_ctxt_switches:") || line.hasPrefix("nonvoluntary_ctxt_switches:")
      else { return nil }
      return line.split(separator: ":").last.flatMap { Int($0.trimmingCharacters(in: .whitespaces)) }
    }
    return counts.count == 2 ? counts.reduce(0, +) : nil
  }
  return nil
}

/// orientd under the tablet policy on a fake accelerometer, with `extra` options, serving a
/// socket in the scratch directory.
private func tabletPolicyDaemon(_ devices: [FakeDevice], extra: [String], bufferFIFO: Bool = false) throws
  -> (
    run: FakeSensorRun, socket: String
  )
{
  let directory = try Scratch.current().makeDirectory("daemon")
  let socket = directory + "/s"
  let run = try FakeSensorRun(
    devices: devices,
    arguments: ["--rotate", "tablet", "--verbose"] + extra + [
      "--socket", socket, "--state", directory + "/state",
    ],
    bufferFIFO: bufferFIFO)
  return (run, socket)
}

@Suite("Sampling stops while nothing needs the sensor", .scratch)
struct IdleSamplingTests {
  /// How long a stretch of idling is watched for wake-ups: many polls' worth at 100 ms.
  static let window: Double = 3

  @Test(
    "In laptop mode with no client, the sampling thread never wakes and the sensor is not read; a client then gets the current orientation at once"
  )
  func idlePolling() throws {
    let (run, socket) = try tabletPolicyDaemon(
      [.accelerometer(raw: (0, -256, 0))], extra: ["--mode", "poll", "--interval", "100"])
    try #require(run.process.waitFor("info: orientation normal", inStderr: true), "\(run.process.stderr)")
    let pid = run.programPID
    // The premise: while sampling, the same measure sees the thread wake at every poll.
    let sampling = try #require(samplingThreadWakeUps(of: pid))
    #expect(waitUntil { (samplingThreadWakeUps(of: pid) ?? 0) >= sampling + 10 })

    let mode = try runToCompletion([TestPaths.orientctl, "--socket", socket, "mode", "laptop"])
    #expect(mode.status == 0, "\(mode.stderr)")
    try #require(run.process.waitFor("nothing needs samples: sampling stopped", inStderr: true))
    // The thread goes back to sleep after the command; from then on it must not wake, even
    // while the device turns.
    #expect(waitUntil { samplingThreadIsAsleep(pid) })
    let idle = try #require(samplingThreadWakeUps(of: pid))
    try run.setRaw(256, 0, 0)
    try run.markUnread("in_accel_x_raw")
    let woke = waitUntil(timeout: Self.window) { samplingThreadWakeUps(of: pid) != idle }
    #expect(!woke, "the idle sampling thread woke: \(idle) -> \(samplingThreadWakeUps(of: pid) ?? -1)")
    #expect(!run.hasBeenRead("in_accel_x_raw"), "the idle sensor was read")

    // A client that asks: sampling resumes, and the first sample is current at once.
    let get = try runToCompletion([TestPaths.orientctl, "--socket", socket, "get"])
    #expect(get.status == 0)
    #expect(get.stdout.contains("device left-up\n"), "\(get.stdout)")
    #expect(get.stdout.contains("orientation normal\n"), "laptop mode holds normal: \(get.stdout)")
    #expect(!run.process.stderr.contains("no fresh sample"), "\(run.process.stderr)")
    // The client is gone: nothing needs the sensor again.
    #expect(run.process.waitFor("nothing needs samples: sampling stopped", inStderr: true, count: 2))
    #expect(run.stop() == 0)
  }

  @Test(
    "In laptop mode the buffer is disabled and the thread never wakes; a subscriber then gets the current orientation in its greeting"
  )
  func idleBuffer() throws {
    let (run, socket) = try tabletPolicyDaemon(
      [.bufferedAccelerometer(raw: (0, -256, 0))], extra: ["--mode", "buffer", "--settle", "0"],
      bufferFIFO: true)
    try #require(run.process.waitFor("capture mode buffer", inStderr: true), "\(run.process.stderr)")
    run.writeScans([(0, -256, 0)])
    try #require(run.process.waitFor("info: orientation normal", inStderr: true), "\(run.process.stderr)")
    #expect(run.read("buffer/enable") == "1")
    let pid = run.programPID

    let mode = try runToCompletion([TestPaths.orientctl, "--socket", socket, "mode", "laptop"])
    #expect(mode.status == 0, "\(mode.stderr)")
    try #require(run.process.waitFor("nothing needs samples: sampling stopped", inStderr: true))
    #expect(run.read("buffer/enable") == "0", "the idle buffer must be disabled")
    #expect(waitUntil { samplingThreadIsAsleep(pid) })
    let idle = try #require(samplingThreadWakeUps(of: pid))
    // The device turns while idle, and its buffer sends nothing (a hub that sends on change
    // would have sent while nobody listened): resuming reads the device once at once.
    try run.setRaw(256, 0, 0)
    let woke = waitUntil(timeout: Self.window) { samplingThreadWakeUps(of: pid) != idle }
    #expect(!woke, "the idle sampling thread woke: \(idle) -> \(samplingThreadWakeUps(of: pid) ?? -1)")

    // A subscriber that connects: its greeting holds the device's current orientation.
    let monitor = try TestProcess([TestPaths.orientctl, "--socket", socket, "monitor"])
    let greeting = monitor.waitForLines(greetingLines)
    #expect(greeting.contains("device left-up"), "\(greeting)")
    #expect(!run.process.stderr.contains("no fresh sample"), "\(run.process.stderr)")
    #expect(run.process.waitFor("sampling resumed", inStderr: true))
    monitor.signal(SIGTERM)
    #expect(monitor.waitForExit() != nil)
    #expect(run.process.waitFor("nothing needs samples: sampling stopped", inStderr: true, count: 2))
    #expect(run.stop() == 0)
  }

  @Test(
    "In laptop mode from a tablet-mode switch, at the default policy, the sensor is not read and the thread never wakes; folding to tablet resumes it"
  )
  func idleFromSwitch() throws {
    let directory = try Scratch.current().makeDirectory("daemon")
    let socket = directory + "/s"
    let run = try FakeInputRun(
      devices: ["laptop"], others: [.accelerometer(raw: (0, -256, 0))],
      program: [
        TestPaths.orientd, "--mode", "poll", "--interval", "100", "--verbose", "--socket", socket, "--state",
        directory + "/state",
      ])
    try #require(run.logs("nothing needs samples: sampling stopped"), "\(run.process.stderr)")
    let pid = run.programPID
    try #require(pid > 0, "\(run.process.stderr)")
    #expect(waitUntil { samplingThreadIsAsleep(pid) })
    let idle = try #require(samplingThreadWakeUps(of: pid))
    try run.setRaw(256, 0, 0)
    try run.markUnread("in_accel_x_raw")
    let woke = waitUntil(timeout: Self.window) { samplingThreadWakeUps(of: pid) != idle }
    #expect(!woke, "the idle sampling thread woke: \(idle) -> \(samplingThreadWakeUps(of: pid) ?? -1)")
    #expect(!run.hasBeenRead("in_accel_x_raw"), "the idle sensor was read")

    // The premise: folded to tablet, the same sensor is read and the screen follows it.
    run.send("switch laptop tablet 1")
    #expect(run.logs("info: mode tablet"), "\(run.process.stderr)")
    #expect(run.logs("info: orientation left-up"), "\(run.process.stderr)")
    #expect(run.hasBeenRead("in_accel_x_raw"))
    #expect(run.stop() == 0)
  }

  @Test("With a base sensor too, laptop mode set by hand stops reading both sensors")
  func idleWithBaseSensor() throws {
    let (run, socket) = try tabletPolicyDaemon(
      FakeHinge.devices(opening: 90), extra: ["--mode", "poll", "--interval", "100"])
    try #require(run.process.waitFor("hinge: pairing", inStderr: true), "\(run.process.stderr)")
    let pid = run.programPID
    let mode = try runToCompletion([TestPaths.orientctl, "--socket", socket, "mode", "laptop"])
    #expect(mode.status == 0, "\(mode.stderr)")
    try #require(run.process.waitFor("nothing needs samples: sampling stopped", inStderr: true, count: 2))
    #expect(waitUntil { samplingThreadIsAsleep(pid) })
    let idle = try #require(samplingThreadWakeUps(of: pid))
    try run.markUnread("in_accel_x_raw", device: FakeHinge.displayIndex)
    try run.markUnread("in_accel_x_raw", device: FakeHinge.baseIndex)
    let woke = waitUntil(timeout: Self.window) { samplingThreadWakeUps(of: pid) != idle }
    #expect(!woke, "the idle sampling thread woke: \(idle) -> \(samplingThreadWakeUps(of: pid) ?? -1)")
    #expect(!run.hasBeenRead("in_accel_x_raw", device: FakeHinge.displayIndex), "the display sensor was read")
    #expect(!run.hasBeenRead("in_accel_x_raw", device: FakeHinge.baseIndex), "the base sensor was read")
    #expect(run.stop() == 0)
  }
}

/// Whether orientd's sampling thread is sleeping (state S in /proc/PID/task/TID/stat).
private func samplingThreadIsAsleep(_ pid: pid_t) -> Bool {
  let tasks = "/proc/\(pid)/task"
  guard let threads = try? FileManager.default.contentsOfDirectory(atPath: tasks) else { return false }
  for thread in threads where fileText("\(tasks)/\(thread)/comm") == "orientd-sensor\n" {
    // The state follows the command name in parentheses.
    let stat = fileText("\(tasks)/\(thread)/stat")
    guard let close = stat.lastIndex(of: ")") else { return false }
    return stat[stat.index(after: close)...].trimmingCharacters(in: .whitespaces).hasPrefix("S")
  }
  return false
}
