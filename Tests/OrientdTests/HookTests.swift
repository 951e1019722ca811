import Foundation
import Testing

@Suite("Hooks", .scratch)
struct HookTests {
  @Test("A daemon hook gets the orientations and every tool's value for each screen orientation")
  func environment() throws {
    let directory = try Scratch.current().makeDirectory()
    let log = directory + "/env.log"
    let line =
      "$ORIENTD_PREVIOUS>$ORIENTD_ORIENTATION dev=$ORIENTD_DEVICE $ORIENTD_XRANDR $ORIENTD_WL_TRANSFORM "
      + "$ORIENTD_SWAY_TRANSFORM $ORIENTD_HYPRLAND_TRANSFORM $ORIENTD_KSCREEN [$ORIENTD_TOUCH_MATRIX]"
    let daemon = try ServedDaemon(extra: ["--hook", "echo \"\(line)\" >> \(log)"], directory: directory)
    #expect(waitForFile(log, toContain: "undefined>normal"))
    // One change at a time: changes while a hook runs are folded into one more run.
    for count in 2...5 {
      #expect(try daemon.orientctl("rotate", "cw").status == 0)
      #expect(waitForLines(inFile: log, count).count == count)
    }
    #expect(
      completeLines(fileText(log)) == [
        "undefined>normal dev=normal normal normal normal 0 none [1 0 0 0 1 0 0 0 1]",
        "normal>left-up dev=normal left 90 270 1 left [0 -1 1 1 0 0 0 0 1]",
        "left-up>bottom-up dev=normal inverted 180 180 2 inverted [-1 0 1 0 -1 1 0 0 1]",
        "bottom-up>right-up dev=normal right 270 90 3 right [0 1 0 -1 0 1 0 0 1]",
        "right-up>normal dev=normal normal normal normal 0 none [1 0 0 0 1 0 0 0 1]",
      ])
    #expect(daemon.stop() == 0)
  }

  @Test(
    "A daemon hook does not get systemd's notification socket or the service's other variables, only those orientd(8) lists"
  )
  func cleanEnvironment() throws {
    let directory = try Scratch.current().makeDirectory()
    let log = directory + "/env.log"
    let launcher = [
      "/usr/bin/env", "MY_API_TOKEN=s3cret", "INVOCATION_ID=0123abcd", "JOURNAL_STREAM=8:1234",
      "NOTIFY_SOCKET=\(directory)/no-systemd", "LANG=C.UTF-8", "ORIENTD_OUTPUT=eDP-9", "DISPLAY=:7",
    ]
    let daemon = try ServedDaemon(
      extra: ["--hook", "env > \(log).new && mv \(log).new \(log)"], directory: directory, launcher: launcher)
    #expect(waitForFile(log, toContain: "ORIENTD_ORIENTATION=normal"), "\(daemon.process.stderr)")
    let names = Set(completeLines(fileText(log)).map { String($0.prefix { $0 != "=" }) })
    // The premise: orientd itself had them (it was told of a notification socket it cannot reach).
    for kept in ["LANG", "ORIENTD_OUTPUT", "DISPLAY", "PATH", "ORIENTD_XRANDR"] {
      #expect(names.contains(kept), "\(kept): \(names.sorted())")
    }
    for dropped in ["MY_API_TOKEN", "INVOCATION_ID", "JOURNAL_STREAM", "NOTIFY_SOCKET"] {
      #expect(!names.contains(dropped), "\(dropped): \(names.sorted())")
    }
    #expect(daemon.stop() == 0)
  }

  @Test("A hook that hangs is killed after the timeout, with its children, and the next hook still runs")
  func timeout() throws {
    let directory = try Scratch.current().makeDirectory()
    let marker = directory + "/after"
    let child = directory + "/child"
    let sleeper = try scratchSleeper()
    let daemon = try ServedDaemon(
      extra: [
        "--hook", "\(sleeper) 300 & echo $! > \(child).tmp && mv \(child).tmp \(child); \(sleeper) 300",
        "--hook", "echo 1 > \(marker)", "--hook-timeout", "2",
      ], directory: directory)
    #expect(waitForFile(marker, toContain: "1"))
    #expect(daemon.process.waitFor("took longer than 2.0 s and was killed", inStderr: true))
    // The hook had started a child in the background, in its process group...
    let childPID = try #require(parsePID(fileText(child), from: child), "the hook's child never started")
    // ...which is gone too (or a zombie until its new parent reaps it), as is the hook.
    #expect(waitUntil { !isAlive(childPID) }, "the hook's background child was left running")
    let leftovers = processes(running: sleeper)
    #expect(leftovers.isEmpty, "left running: \(leftovers)")
    killAll(leftovers)
    #expect(try daemon.orientctl("get").status == 0)
    #expect(daemon.stop() == 0)
  }

  @Test("Changes during a run lead to one more run with only the latest state")
  func coalescing() throws {
    let directory = try Scratch.current().makeDirectory()
    let started = directory + "/started.log"
    let finished = directory + "/finished.log"
    let gate = try HookGate()
    let transition = "\"$ORIENTD_PREVIOUS>$ORIENTD_ORIENTATION\""
    // Each run notes that it started, then waits for the test before it finishes.
    let daemon = try ServedDaemon(
      extra: ["--hook", "echo \(transition) >> \(started); \(gate.wait); echo \(transition) >> \(finished)"],
      directory: directory)
    #expect(waitForLines(inFile: started, 1) == ["undefined>normal"])
    #expect(gate.letOneThrough())
    #expect(waitForLines(inFile: finished, 1) == ["undefined>normal"])

    let commander = try TestClient(path: daemon.socket)
    #expect(commander.readLines(greetingLines) == normalSnapshot)
    commander.send("rotate cw\n")
    #expect(commander.readLines(3).last == "ok")
    // The run for left-up is under way and waits at the gate while three more changes come.
    #expect(waitForLines(inFile: started, 2).last == "normal>left-up")
    commander.send("rotate cw\nrotate cw\nrotate cw\n")
    #expect(commander.readLines(9).last == "ok")
    #expect(gate.letOneThrough())
    // The three changes fold into one run for the last, whose previous orientation is the
    // one just before it.
    #expect(waitForLines(inFile: started, 3) == ["undefined>normal", "normal>left-up", "right-up>normal"])
    #expect(gate.letOneThrough())
    #expect(waitForLines(inFile: finished, 3) == ["undefined>normal", "normal>left-up", "right-up>normal"])
    // Nothing else was left pending: the next change's run is the next to start.
    commander.send("rotate ccw\n")
    #expect(commander.readLines(3).last == "ok")
    #expect(waitForLines(inFile: started, 4).last == "normal>right-up")
    #expect(gate.letOneThrough())
    #expect(waitForLines(inFile: finished, 4).last == "normal>right-up")
    #expect(daemon.stop() == 0)
  }

  @Test("A failing hook is logged with its exit status and affects nothing else")
  func failureIsolation() throws {
    let directory = try Scratch.current().makeDirectory()
    let log = directory + "/ok.log"
    let missing = directory + "/missing-hook"
    let daemon = try ServedDaemon(
      extra: ["--hook", "exit 3", "--hook", missing, "--hook", "echo ran >> \(log)"],
      directory: directory)
    #expect(waitForFile(log, toContain: "ran"))
    #expect(daemon.process.waitFor("hook 'exit 3' failed with exit status 3", inStderr: true))
    #expect(daemon.process.waitFor("hook '\(missing)' failed with exit status 127", inStderr: true))
    #expect(try daemon.orientctl("rotate", "cw").status == 0)
    #expect(completeLines(try daemon.orientctl("get").stdout).contains("orientation left-up"))
    #expect(daemon.stop() == 0)
  }

  @Test("A hooks-dir that does not exist is a warning at start, not silence")
  func missingHooksDirectoryIsWarned() throws {
    let missing = try Scratch.current().path("no-such-hooks")
    let daemon = try ServedDaemon(extra: ["--hooks-dir", missing])
    #expect(daemon.process.stderr.contains("hooks-dir \(missing) is missing"), "\(daemon.process.stderr)")
    #expect(daemon.stop() == 0)
  }

  @Test("hooks-dir runs every executable in it, in name order, after the hook lines")
  func hooksDirectory() throws {
    let directory = try Scratch.current().makeDirectory()
    let hooks = directory + "/hooks.d"
    try FileManager.default.createDirectory(atPath: hooks, withIntermediateDirectories: true)
    let log = directory + "/order.log"
    for (name, executable) in [("20-second", true), ("10-first", true), ("15-not-executable", false)] {
      let path = hooks + "/" + name
      try "#!/bin/sh\necho \(name) >> \(log)\n".write(toFile: path, atomically: true, encoding: .utf8)
      chmod(path, executable ? 0o755 : 0o644)
    }
    let daemon = try ServedDaemon(
      extra: ["--hook", "echo line >> \(log)", "--hooks-dir", hooks], directory: directory)
    #expect(waitForFile(log, toContain: "20-second"))
    #expect(try String(contentsOfFile: log, encoding: .utf8) == "line\n10-first\n20-second\n")
    #expect(daemon.stop() == 0)
  }

  @Test("orientctl hook runs the command on connect and on each change, and reconnects after a restart")
  func desktopHookReconnects() throws {
    let directory = try Scratch.current().makeDirectory()
    let log = directory + "/desktop.log"
    var daemon: ServedDaemon? = try ServedDaemon(directory: directory)
    let socket = daemon!.socket
    let client = try TestProcess([
      TestPaths.orientctl, "--socket", socket, "hook", "/bin/sh", "-c",
      // As the display hooks do: a rotation suggested to the locked screen turns nothing (the
      // second orientd below suggests normal, as it starts locked left-up with the device normal).
      "[ \"$ORIENTD_EVENT\" = suggestion ] || echo \"$ORIENTD_PREVIOUS>$ORIENTD_ORIENTATION $ORIENTD_XRANDR\" >> \(log)",
    ])
    #expect(waitForFile(log, toContain: "undefined>normal normal"))
    #expect(try daemon!.orientctl("lock", "left-up").status == 0)
    #expect(waitForFile(log, toContain: "normal>left-up left"))

    #expect(daemon?.stop() == 0)
    daemon = nil
    #expect(client.waitFor("went away; reconnecting", inStderr: true))
    // A new orientd on the same socket: the state file kept the lock, so the orientation is
    // still left-up and the hook has no reason to run. Unlock to see it run again.
    daemon = try ServedDaemon(directory: directory)
    #expect(client.waitFor("connected to orientd", inStderr: true, count: 2), "\(client.stderr)")
    #expect(try daemon!.orientctl("unlock").status == 0)
    #expect(waitForFile(log, toContain: "left-up>normal normal"))
    let runs = try String(contentsOfFile: log, encoding: .utf8).split(separator: "\n")
    #expect(runs == ["undefined>normal normal", "normal>left-up left", "left-up>normal normal"])
    client.signal(SIGTERM)
    #expect(client.waitForExit() == 0)
    #expect(daemon?.stop() == 0)
  }
}
