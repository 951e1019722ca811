import Foundation
import Testing

@Suite("Hooks")
struct HookTests {
  @Test("A daemon hook gets the orientations and every tool's value for each screen orientation")
  func environment() throws {
    let directory = try TestPaths.scratchDirectory()
    let log = directory + "/env.log"
    let line =
      "$ORIENTD_PREVIOUS>$ORIENTD_ORIENTATION dev=$ORIENTD_DEVICE $ORIENTD_XRANDR $ORIENTD_WL_TRANSFORM "
      + "$ORIENTD_SWAY_TRANSFORM $ORIENTD_HYPRLAND_TRANSFORM $ORIENTD_KSCREEN [$ORIENTD_TOUCH_MATRIX]"
    let daemon = try ServedDaemon(extra: ["--hook", "echo \"\(line)\" >> \(log)"], directory: directory)
    #expect(waitForFile(log, toContain: "undefined>normal"))
    for _ in 0..<4 { #expect(try daemon.orientctl("rotate", "cw").status == 0) }
    #expect(waitForFile(log, toContain: "right-up>normal"))
    let lines = try String(contentsOfFile: log, encoding: .utf8).split(separator: "\n")
    #expect(
      lines == [
        "undefined>normal dev=normal normal normal normal 0 none [1 0 0 0 1 0 0 0 1]",
        "normal>left-up dev=normal left 90 270 1 left [0 -1 1 1 0 0 0 0 1]",
        "left-up>bottom-up dev=normal inverted 180 180 2 inverted [-1 0 1 0 -1 1 0 0 1]",
        "bottom-up>right-up dev=normal right 270 90 3 right [0 1 0 -1 0 1 0 0 1]",
        "right-up>normal dev=normal normal normal normal 0 none [1 0 0 0 1 0 0 0 1]",
      ])
    #expect(daemon.stop() == 0)
  }

  @Test("A hook that hangs is killed after the timeout, with its children, and the next hook still runs")
  func timeout() throws {
    let directory = try TestPaths.scratchDirectory()
    let marker = directory + "/after"
    let started = directory + "/started"
    let daemon = try ServedDaemon(
      extra: [
        "--hook", "echo 1 > \(started); sleep 300 & sleep 300", "--hook", "echo 1 > \(marker)",
        "--hook-timeout", "0.3",
      ], directory: directory)
    #expect(waitForFile(started, toContain: "1"))
    #expect(waitForFile(marker, toContain: "1"))
    #expect(daemon.process.waitFor("took longer than 0.3 s and was killed", inStderr: true))
    // The hook's background child was in its process group and is gone too (once reaped).
    var leftovers = ""
    for _ in 0..<100 {
      leftovers = try runToCompletion(["/usr/bin/pgrep", "-f", "^sleep 300$"]).stdout
      if leftovers.isEmpty { break }
      usleep(20_000)
    }
    #expect(leftovers.isEmpty, "left running: \(leftovers)")
    #expect(try daemon.orientctl("get").status == 0)
    #expect(daemon.stop() == 0)
  }

  @Test("Changes during a run lead to one more run with only the latest state")
  func coalescing() throws {
    let directory = try TestPaths.scratchDirectory()
    let log = directory + "/runs.log"
    let daemon = try ServedDaemon(
      extra: ["--hook", "sleep 0.5; echo \"$ORIENTD_PREVIOUS>$ORIENTD_ORIENTATION\" >> \(log)"],
      directory: directory)
    #expect(waitForFile(log, toContain: "undefined>normal"))
    let commander = try TestClient(path: daemon.socket)
    _ = commander.readLines(5)
    commander.send("rotate cw\n")
    #expect(commander.readLines(3).last == "ok")
    usleep(100_000)
    commander.send("rotate cw\nrotate cw\nrotate cw\n")
    #expect(commander.readLines(9).last == "ok")
    usleep(1_600_000)
    let runs = try String(contentsOfFile: log, encoding: .utf8).split(separator: "\n")
    // The run for left-up was under way; the three later changes fold into one run for the
    // last, whose previous orientation is the one just before it.
    #expect(runs == ["undefined>normal", "normal>left-up", "right-up>normal"], "\(runs)")
    #expect(daemon.stop() == 0)
  }

  @Test("A failing hook is logged with its exit status and affects nothing else")
  func failureIsolation() throws {
    let directory = try TestPaths.scratchDirectory()
    let log = directory + "/ok.log"
    let daemon = try ServedDaemon(
      extra: ["--hook", "exit 3", "--hook", "/nonexistent/hook", "--hook", "echo ran >> \(log)"],
      directory: directory)
    #expect(waitForFile(log, toContain: "ran"))
    #expect(daemon.process.waitFor("hook 'exit 3' failed with exit status 3", inStderr: true))
    #expect(daemon.process.waitFor("hook '/nonexistent/hook' failed with exit status 127", inStderr: true))
    #expect(try daemon.orientctl("rotate", "cw").status == 0)
    #expect(daemon.stop() == 0)
  }

  @Test("hooks-dir runs every executable in it, in name order, after the hook lines")
  func hooksDirectory() throws {
    let directory = try TestPaths.scratchDirectory()
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
    let directory = try TestPaths.scratchDirectory()
    let log = directory + "/desktop.log"
    var daemon: ServedDaemon? = try ServedDaemon(directory: directory)
    let socket = daemon!.socket
    let client = try TestProcess([
      TestPaths.orientctl, "--socket", socket, "hook", "/bin/sh", "-c",
      "echo \"$ORIENTD_PREVIOUS>$ORIENTD_ORIENTATION $ORIENTD_XRANDR\" >> \(log)",
    ])
    #expect(waitForFile(log, toContain: "undefined>normal normal"))
    #expect(try daemon!.orientctl("lock", "left-up").status == 0)
    #expect(waitForFile(log, toContain: "normal>left-up left"))

    #expect(daemon?.stop() == 0)
    daemon = nil
    #expect(client.waitFor("went away; reconnecting", inStderr: true))
    // A new orientd: unlocked and persisted lock restored... the state file kept the lock, so
    // the orientation is still left-up: no new run. Unlock to see the hook run again.
    daemon = try ServedDaemon(directory: directory)
    #expect(client.waitFor("connected to orientd", inStderr: true))
    #expect(try daemon!.orientctl("unlock").status == 0)
    #expect(waitForFile(log, toContain: "left-up>normal normal"))
    let runs = try String(contentsOfFile: log, encoding: .utf8).split(separator: "\n")
    #expect(runs == ["undefined>normal normal", "normal>left-up left", "left-up>normal normal"])
    client.signal(SIGTERM)
    #expect(client.waitForExit(timeout: 5) == 0)
    #expect(daemon?.stop() == 0)
  }
}
