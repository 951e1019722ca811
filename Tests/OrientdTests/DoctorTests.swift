import Foundation
import Testing

/// What `orientctl doctor` says when the set-up is not a plain attached accelerometer.
@Suite("orientctl doctor for every sample source and a missing hooks-dir", .scratch)
struct DoctorTests {
  @Test("With no sensor attached, doctor says so rather than calling it the sample source")
  func noSensorAttached() throws {
    let device = FakeDevice.accelerometer(raw: (0, -256, 0))
    let (run, socket) = try servingFakeSensor(
      [device], extra: ["--interval", "20", "--settle", "0"],
      prepare: "mv \"$UMOCKDEV_DIR/sys\(device.sysfsPath)\" \"$UMOCKDEV_DIR/later\"",
      ready: "serving 'sensor offline' and looking again every second")
    let result = try runToCompletion([TestPaths.orientctl, "--socket", socket, "doctor"])
    #expect(result.status == 0, "\(result.stderr)")
    #expect(result.stdout.contains("Sensor: no sensor attached"), "\(result.stdout)")
    #expect(!result.stdout.contains("Samples come from it"), "\(result.stdout)")
    #expect(result.stdout.contains("Orientation: device undefined, screen undefined."))
    #expect(run.stop() == 0)
  }

  @Test("With --replay or --demo, doctor says the samples come from there")
  func replayAndDemo() throws {
    let daemon = try ServedDaemon()
    let replay = try daemon.orientctl("doctor")
    #expect(replay.status == 0)
    #expect(replay.stdout.contains("Sensor: replay of "), "\(replay.stdout)")
    #expect(replay.stdout.contains("Samples come from it, not from an accelerometer."))
    #expect(daemon.stop() == 0)

    let socket = try Scratch.current().path("demo.sock")
    let demo = try TestProcess([TestPaths.orientd, "--demo", "--socket", socket])
    #expect(demo.waitFor("listening on", inStderr: true), "\(demo.stderr)")
    let result = try runToCompletion([TestPaths.orientctl, "--socket", socket, "doctor"])
    #expect(result.stdout.contains("Sensor: the built-in demo. Samples come from it"), "\(result.stdout)")
    demo.signal(SIGTERM)
    #expect(demo.waitForExit() == 0)
  }

  @Test("A missing hooks-dir is a warning in doctor too, for those who may see the hooks")
  func missingHooksDirectory() throws {
    let missing = try Scratch.current().path("no-such-hooks")
    let daemon = try ServedDaemon(extra: ["--hooks-dir", missing])
    let result = try daemon.orientctl("doctor")
    #expect(result.status == 0)
    #expect(
      result.stdout.contains("WARNING: hooks-dir \(missing) is missing; no hooks run from it"),
      "\(result.stdout)")
    #expect(daemon.stop() == 0)

    // A file is no better than nothing.
    let file = try Scratch.current().path("hooks-file")
    try "".write(toFile: file, atomically: true, encoding: .utf8)
    let second = try ServedDaemon(extra: ["--hooks-dir", file])
    #expect(try second.orientctl("doctor").stdout.contains("hooks-dir \(file) is not a directory"))
    #expect(second.stop() == 0)

    // A path that cannot be examined is not called missing: the error says why.
    let underFile = file + "/hooks"
    let third = try ServedDaemon(extra: ["--hooks-dir", underFile])
    let doctor = try third.orientctl("doctor").stdout
    #expect(doctor.contains("hooks-dir \(underFile) is not examinable (Not a directory)"), "\(doctor)")
    #expect(third.stop() == 0)
  }

  @Test("doctor shows no hook paths to a user who may not control orientd, and says they are hidden")
  func hooksHiddenFromOthers() throws {
    let group = try SocketRobustnessTests.privateControlGroup()
    let missing = try Scratch.current().path("secret-hooks")
    let daemon = try servedDaemonOpenToOthers(
      extra: ["--control-group", group.name, "--hooks-dir", missing], launcher: group.launcher)
    let result = try runToCompletion(
      try Unprivileged.command([TestPaths.orientctl, "--socket", daemon.socket, "doctor"]))
    #expect(result.status == 0, "\(result.stderr)")
    #expect(!result.stdout.contains(missing), "\(result.stdout)")
    #expect(result.stdout.contains("Hooks: not shown"), "\(result.stdout)")
    #expect(daemon.stop() == 0)
  }
}
