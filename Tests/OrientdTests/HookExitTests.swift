import Foundation
import Testing

@Suite("Hooks when orientd exits", .scratch)
struct HookExitTests {
  @Test("SIGTERM during a hook ends the hook and the children in its process group")
  func terminateKillsHookGroup() throws {
    let scratch = try Scratch.current()
    let directory = try scratch.makeDirectory()
    let child = directory + "/child"
    let sleeper = try scratchSleeper()
    // nobody must reach the socket, and logind puts nobody at the seat so that nobody may control.
    let logind = try FakeLogind(activeUID: Unprivileged.uid)
    Unprivileged.openScratch(scratch)
    chmod(directory, 0o755)
    // The hook hangs (with a background child) only for left-up, which nobody asks for.
    let hook =
      "[ \"$ORIENTD_ORIENTATION\" = left-up ] || exit 0; "
      + "\(sleeper) 300 & echo $! > \(child).tmp && mv \(child).tmp \(child); \(sleeper) 301"
    let daemon = try ServedDaemon(
      extra: ["--hook", hook, "--hook-timeout", "600"], directory: directory, launcher: try logind.launcher)
    let rotate = try runToCompletion(
      try Unprivileged.command([TestPaths.orientctl, "--socket", daemon.socket, "rotate", "cw"]))
    #expect(rotate.status == 0, "rotate failed: \(rotate.stderr)")

    #expect(waitForFile(child, toContain: "\n"), "the hook's child never started")
    let childPID = try #require(parsePID(fileText(child), from: child))
    // The pid is the child the hook recorded, not a process that reused the number (the
    // child may still be on its way from the shell to sleep).
    let childCommand = [sleeper, "300"]
    try #require(
      waitUntil { commandLine(of: childPID) == childCommand }, "pid \(childPID) is not the hook's child")
    try #require(
      waitUntil { processes(running: sleeper).contains { $0.arguments == [sleeper, "301"] } },
      "the hook itself is not running")

    #expect(daemon.stop() == 0)
    #expect(daemon.process.stderr.contains("stopping hook"))
    // Gone, or a zombie until its new parent reaps it; a new process with the same number is
    // not the child.
    #expect(
      waitUntil { !isAlive(childPID) || commandLine(of: childPID) != childCommand },
      "the hook's background child outlived orientd")
    // The hook itself was killed with its group too; under load it may take a moment to go.
    #expect(waitUntil { processes(running: sleeper).isEmpty }, "left running: \(processes(running: sleeper))")
    killAll(processes(running: sleeper))
  }
}
