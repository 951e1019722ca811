import Foundation
import Glibc
import OrientSystem
import Testing

@testable import OrientHooks

/// A directory of one test's own under /tmp (mkdtemp), removed with all it holds when the
/// test lets go of it.
private final class ScratchDirectory {
  let path: String

  init() throws {
    var template = Array("/tmp/orientd-hooks-XXXXXX".utf8CString)
    guard let made = mkdtemp(&template) else { throw SystemError("mkdtemp", code: .current) }
    path = String(cString: made)
  }

  deinit { try? FileManager.default.removeItem(atPath: path) }

  /// The lines of the file `name`, empty while it does not exist.
  func lines(of name: String) -> [String] {
    guard let text = try? String(contentsOfFile: path + "/" + name, encoding: .utf8) else { return [] }
    return text.split(separator: "\n").map(String.init)
  }
}

/// The time the runner's loop reads: it moves only when the test moves it.
private final class ScriptedClock {
  private(set) var now = MonotonicInstant(nanoseconds: 1_000 * 1_000_000_000)
  func advance(by duration: Duration) { now = now + duration }
}

/// Runs `loop` a round at a time until `condition` holds; false if it still does not after
/// `limit` of real time. The rounds wait on the hooks' exit descriptors.
private func turn(_ loop: EventLoop, until condition: () -> Bool, within limit: Duration = .seconds(10))
  -> Bool
{
  let deadline = MonotonicInstant.now + limit
  while !condition() {
    guard MonotonicInstant.now < deadline else { return false }
    do {
      try loop.runRound(waitingAtMost: .milliseconds(20))
    } catch {
      Issue.record("the loop failed: \(error)")
      return false
    }
  }
  return true
}

/// Opens the FIFO at `path` for writing and writes one line: a hook blocked reading it goes on.
/// The open waits until the hook has the FIFO open, so nothing here depends on timing.
private func release(_ path: String) throws {
  let descriptor = FileDescriptor(adopting: open(path, O_WRONLY | O_CLOEXEC))
  guard descriptor.rawValue >= 0 else { throw SystemError("open \(path)", code: .current) }
  try descriptor.writeAll("go\n")
}

@Suite("The hook runner, on an event loop in the test process")
struct HookRunnerTests {
  @Test("A hook runs under /bin/sh with the change's variables and only the inherited ones it lets through")
  func environment() throws {
    let scratch = try ScratchDirectory()
    let loop = try EventLoop()
    let out = scratch.path + "/env"
    let runner = HookRunner(
      loop: loop, timeout: .seconds(30), inherits: { $0 == "PATH" },
      commands: { [.shell("/usr/bin/env > \(out)")] })
    runner.trigger([("ORIENTD_ORIENTATION", "left-up"), ("ORIENTD_PREVIOUS", "normal")])
    #expect(runner.isRunning)
    #expect(turn(loop, until: { !runner.isRunning }))
    let variables = Set(scratch.lines(of: "env"))
    #expect(variables.contains("ORIENTD_ORIENTATION=left-up"))
    #expect(variables.contains("ORIENTD_PREVIOUS=normal"))
    let path = try #require(Environment.all.first { $0.hasPrefix("PATH=") })
    #expect(variables.contains(path), "PATH is let through")
    // The test process's other variables are not (but those the shell sets itself).
    let shellsOwn = ["PATH", "PWD", "OLDPWD", "SHLVL", "_"]
    let other = try #require(Environment.all.first { !shellsOwn.contains(String($0.prefix { $0 != "=" })) })
    #expect(!variables.contains(other), "\(other) must not be let through")
  }

  @Test("Changes during a run lead to one more run, with only the latest variables")
  func coalescing() throws {
    let scratch = try ScratchDirectory()
    let gate = scratch.path + "/gate"
    guard mkfifo(gate, 0o600) == 0 else { throw SystemError("mkfifo", code: .current) }
    let loop = try EventLoop()
    let started = scratch.path + "/started"
    let runner = HookRunner(
      loop: loop, timeout: .seconds(30),
      commands: { [.shell("echo \"$N\" >> \(started); read line < \(gate)")] })
    runner.trigger([("N", "1")])
    runner.trigger([("N", "2")])
    runner.trigger([("N", "3")])
    try release(gate)
    // Only once the second run has started is someone there to read the gate again.
    try #require(turn(loop, until: { scratch.lines(of: "started").count == 2 }))
    try release(gate)
    #expect(turn(loop, until: { !runner.isRunning }))
    #expect(scratch.lines(of: "started") == ["1", "3"])
  }

  @Test("Runs of another kind wait beside the latest of each kind: a suggestion never replaces a turn")
  func coalescingPerKind() throws {
    let scratch = try ScratchDirectory()
    let gate = scratch.path + "/gate"
    guard mkfifo(gate, 0o600) == 0 else { throw SystemError("mkfifo", code: .current) }
    let loop = try EventLoop()
    let started = scratch.path + "/started"
    let runner = HookRunner(
      loop: loop, timeout: .seconds(30),
      commands: { [.shell("echo \"$N\" >> \(started); read line < \(gate)")] })
    runner.trigger([("N", "turn 1")], kind: "state")
    runner.trigger([("N", "turn 2")], kind: "state")
    runner.trigger([("N", "suggestion 1")], kind: "suggestion")
    runner.trigger([("N", "turn 3")], kind: "state")
    runner.trigger([("N", "suggestion 2")], kind: "suggestion")
    for count in 2...3 {
      try release(gate)
      // Only once the next run has started is someone there to read the gate again.
      try #require(turn(loop, until: { scratch.lines(of: "started").count == count }))
    }
    try release(gate)
    #expect(turn(loop, until: { !runner.isRunning }))
    #expect(scratch.lines(of: "started") == ["turn 1", "turn 3", "suggestion 2"])
  }

  @Test("A hook past its timeout is killed with its group, and the next hook runs")
  func timeout() throws {
    let scratch = try ScratchDirectory()
    let clock = ScriptedClock()
    let loop = try EventLoop(clock: { [clock] in clock.now })
    let gate = scratch.path + "/gate"
    guard mkfifo(gate, 0o600) == 0 else { throw SystemError("mkfifo", code: .current) }
    let started = scratch.path + "/started"
    let after = scratch.path + "/after"
    // The hook's child holds the FIFO open for reading and never finishes on its own.
    let runner = HookRunner(
      loop: loop, timeout: .seconds(5),
      commands: { [.shell("echo $$ > \(started); cat \(gate) > /dev/null"), .shell("echo ran > \(after)")] })
    runner.trigger([])
    // Once the writer's open returns, the hook's `cat` runs.
    let writer = FileDescriptor(adopting: open(gate, O_WRONLY | O_CLOEXEC))
    #expect(writer.rawValue >= 0)
    #expect(turn(loop, until: { scratch.lines(of: "started").count == 1 }))
    // Nothing ends it before its time.
    #expect(!turn(loop, until: { !runner.isRunning }, within: .milliseconds(200)))
    clock.advance(by: .seconds(5))
    #expect(turn(loop, until: { scratch.lines(of: "after") == ["ran"] }))
    #expect(turn(loop, until: { !runner.isRunning }))
    // `cat`, in the hook's group, was killed too: the FIFO loses its last reader. It may close
    // its end after the hook was reaped (both die of the one SIGKILL), so wait for the error.
    let ready = try Readiness.wait([(writer.rawValue, [])], timeout: .seconds(10))
    #expect(ready.first?.contains(.error) == true)
  }
}
