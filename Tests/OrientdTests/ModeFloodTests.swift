import Foundation
import Testing

/// Clients of the user at the seat (who may control without a control group) flipping the
/// mode as fast as they can: the log, the hooks and the state file must not follow every flip,
/// and root's own commands must still go through.
@Suite("The mode flipped by a local user's flood", .scratch)
struct ModeFloodTests {
  @Test("32 connections flipping the mode: a few log lines and hook runs, and root's lock is saved")
  func modeFlood() throws {
    let directory = try Unprivileged.openDirectory(in: try Scratch.current())
    let socket = directory + "/s"
    let state = directory + "/state"
    let hookLog = directory + "/hooks"
    // logind puts nobody, the flood's user, at the seat.
    let logind = try FakeLogind(activeUID: Unprivileged.uid)
    let run = try FakeSensorRun(
      devices: [.accelerometer(raw: (0, -256, 0))],
      arguments: [
        "--interval", "50", "--socket", socket, "--state", state,
        "--hook", "echo \"$ORIENTD_MODE\" >> \(hookLog)",
      ], launcher: try logind.launcher)
    try #require(run.process.waitFor("info: orientation normal", inStderr: true), "\(run.process.stderr)")
    #expect(waitForLines(inFile: hookLog, 1) == ["unknown"])
    let modeLines = run.process.stderr.components(separatedBy: "info: mode ").count
    let flood = try TestProcess(
      Unprivileged.attack("control-flood", [socket, "32", "4", "mode tablet|mode laptop"]))
    // While it floods, root locks the screen: the change is saved, whatever the flood saves.
    #expect(run.process.waitFor("info: mode tablet", inStderr: true), "the flood did not start")
    let lock = try runToCompletion([TestPaths.orientctl, "--socket", socket, "lock", "left-up"])
    #expect(lock.status == 0, "\(lock)")
    #expect((try? String(contentsOfFile: state, encoding: .utf8))?.contains("lock left-up") == true)
    #expect(flood.waitForExit() == 0, "\(flood.stderr)")
    // The premise: the mode flipped thousands of times.
    let replies = attackFigure("replies", in: flood.stdout).flatMap { Int($0) } ?? 0
    #expect(replies > 300, "\(flood.stdout)")
    let flips = run.process.stderr.components(separatedBy: "info: mode ").count - modeLines
    #expect(flips > 0, "no mode change was logged")
    let clientLines = run.process.stderr.components(separatedBy: "set by a client").count - 1
    #expect(clientLines <= 10, "\(clientLines) lines of modes set by a client")
    // The hooks ran for the first state and for the lock's turn, and for a mode only once it held
    // a moment, once a second at most: not at every flip.
    let ran = (try? String(contentsOfFile: hookLog, encoding: .utf8))?.split(separator: "\n").count ?? 0
    #expect(ran <= 8, "the hooks ran \(ran) times")
    #expect(run.stop() == 0)
  }
}
