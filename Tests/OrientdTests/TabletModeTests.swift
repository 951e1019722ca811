import Foundation
import Testing

/// A fake sensor held `normal`, polled every 10 ms with a 50 ms settle, with `extra` options.
private func servingTurnableSensor(_ extra: [String] = []) throws -> (run: FakeSensorRun, socket: String) {
  try servingFakeSensor(
    [.accelerometer(raw: (0, -256, 0))], extra: ["--interval", "10", "--settle", "50"] + extra,
    ready: "info: orientation normal")
}

private func orientctl(_ socket: String, _ arguments: String...) throws -> (
  status: Int32, stdout: String, stderr: String
) {
  try runToCompletion([TestPaths.orientctl, "--socket", socket] + arguments)
}

@Suite("Tablet mode: the mode command, the rotate policy and subscriptions", .scratch)
struct TabletModeTests {
  @Test("Under rotate tablet, laptop mode holds the screen normal while device changes keep flowing")
  func laptopHoldsNormal() throws {
    let (run, socket) = try servingTurnableSensor(["--rotate", "tablet"])
    let subscriber = try TestClient(path: socket)
    // No source says the mode: unknown, and the screen follows the device as it always did.
    #expect(subscriber.readLines(greetingLines) == normalSnapshot)
    try run.setRaw(256, 0, 0)
    #expect(subscriber.readLines(2) == ["device left-up", "orientation left-up"])

    #expect(try orientctl(socket, "mode", "laptop").status == 0)
    #expect(subscriber.readLines(2) == ["mode laptop", "orientation normal"])
    try run.setRaw(0, 256, 0)
    #expect(subscriber.readLine() == "device bottom-up", "device changes keep flowing in laptop mode")
    #expect(subscriber.linesBeforePong() == [], "the screen stays normal")
    #expect(try orientctl(socket, "get", "orientation").stdout == "normal\n")

    // Tablet mode turns the screen to the device at once, without waiting for a new sample.
    #expect(try orientctl(socket, "mode", "tablet").status == 0)
    #expect(subscriber.readLines(2) == ["mode tablet", "orientation bottom-up"])
    #expect(try orientctl(socket, "mode", "laptop").status == 0)
    #expect(subscriber.readLines(2) == ["mode laptop", "orientation normal"])
    // Back to the sources: none here, so unknown, and unknown rotates.
    #expect(try orientctl(socket, "mode", "auto").status == 0)
    #expect(subscriber.readLines(2) == ["mode unknown", "orientation bottom-up"])
    #expect(run.stop() == 0)
  }

  @Test("rotate auto holds normal once the mode command says laptop; rotate always never holds; a lock wins")
  func autoAndAlways() throws {
    let (run, socket) = try servingTurnableSensor()
    let subscriber = try TestClient(path: socket)
    _ = subscriber.readLines(greetingLines)
    try run.setRaw(256, 0, 0)
    #expect(subscriber.readLines(2) == ["device left-up", "orientation left-up"])
    #expect(try orientctl(socket, "mode", "laptop").status == 0)
    #expect(subscriber.readLines(2) == ["mode laptop", "orientation normal"])
    subscriber.send("info\n")
    let info = subscriber.readLines(through: "ok")
    #expect(info.contains("info tablet-mode laptop (from manual; rotate tablet, from auto)"), "\(info)")
    // A lock is what the user asked for: it wins over the laptop hold.
    #expect(try orientctl(socket, "lock", "right-up").status == 0)
    #expect(subscriber.readLines(2) == ["lock right-up", "orientation right-up"])
    #expect(try orientctl(socket, "unlock").status == 0)
    #expect(subscriber.readLines(2) == ["lock off", "orientation normal"])
    #expect(run.stop() == 0)

    let (always, alwaysSocket) = try servingTurnableSensor(["--rotate", "always"])
    let listener = try TestClient(path: alwaysSocket)
    _ = listener.readLines(greetingLines)
    #expect(try orientctl(alwaysSocket, "mode", "laptop").status == 0)
    #expect(listener.readLine() == "mode laptop")
    try always.setRaw(256, 0, 0)
    #expect(listener.readLines(2) == ["device left-up", "orientation left-up"])
    #expect(always.stop() == 0)
  }

  @Test("mode is a control command: another user outside the control group is refused and nothing changes")
  func modeNeedsControl() throws {
    try #require(getuid() == 0, "this test switches users and must run as root")
    let setpriv = try #require(TestPaths.which("setpriv"), "setpriv is missing (util-linux)")
    let group = try SocketRobustnessTests.privateControlGroup()
    let daemon = try servedDaemonOpenToOthers(
      extra: ["--control-group", group.name], launcher: group.launcher)
    let asNobody = try runToCompletion(
      [
        setpriv, "--reuid", "\(Unprivileged.uid)", "--regid", "\(Unprivileged.gid)", "--clear-groups",
        TestPaths.orientctl, "--socket", daemon.socket, "mode", "laptop",
      ])
    #expect(asNobody.status == 77)
    #expect(asNobody.stderr.contains("permission-denied"))
    #expect(try daemon.orientctl("get", "mode").stdout == "unknown\n")
    // The premise: the same command from root is taken.
    #expect(try daemon.orientctl("mode", "laptop").status == 0)
    #expect(try daemon.orientctl("get", "mode").stdout == "laptop\n")
    #expect(daemon.stop() == 0)
  }

  @Test("A client that subscribes to orientation and mode hears only those; the others hear everything")
  func subscribeFilters() throws {
    let (run, socket) = try servingTurnableSensor()
    let narrow = try TestClient(path: socket)
    let everything = try TestClient(path: socket)
    _ = narrow.readLines(greetingLines)
    _ = everything.readLines(greetingLines)
    narrow.send("subscribe orientation, mode\n")
    #expect(narrow.readLine() == "ok")
    try run.setRaw(256, 0, 0)
    #expect(everything.readLines(2) == ["device left-up", "orientation left-up"])
    #expect(narrow.readLine() == "orientation left-up")
    try run.setRaw(0, 0, -256)
    #expect(everything.readLine() == "device face-up", "a face-up device changes no screen orientation")
    #expect(narrow.linesBeforePong() == [], "no device line for a client that did not subscribe to it")
    #expect(try orientctl(socket, "mode", "tablet").status == 0)
    #expect(narrow.readLine() == "mode tablet")
    // get still answers with the whole state.
    narrow.send("get\n")
    #expect(narrow.readLines(through: "ok").contains("device face-up"))

    narrow.send("subscribe device,bogus\nsubscribe\nsubscribe all\n")
    #expect(
      narrow.readLines(3) == [
        "error bad-argument unknown state 'bogus' (expected all or a list of sensor, device, orientation, lock, allowed, mode, hinge, light, proximity, heading, suggestion)",
        "error bad-argument usage: subscribe all|LIST", "ok",
      ])
    try run.setRaw(0, -256, 0)
    #expect(narrow.readLines(2) == ["device normal", "orientation normal"])
    #expect(run.stop() == 0)
  }

  @Test("JSON clients and orientctl get see the mode; orientctl mode refuses a bad value with exit 64")
  func modeInJSONAndOrientctl() throws {
    let daemon = try ServedDaemon()
    let client = try TestClient(path: daemon.socket)
    _ = client.readLines(greetingLines)
    client.send("format json\nmode tablet\n")
    #expect(
      client.readLines(3) == [#"{"reply":"ok"}"#, #"{"event":"mode","value":"tablet"}"#, #"{"reply":"ok"}"#])
    #expect(try daemon.orientctl("get", "mode").stdout == "tablet\n")
    #expect(try daemon.orientctl("get", "--json").stdout.hasSuffix(#","mode":"tablet"}"# + "\n"))
    let bad = try daemon.orientctl("mode", "folded")
    #expect(bad.status == 64)
    #expect(bad.stderr.contains("usage: mode tablet|laptop|auto"))
    client.send("mode folded\n")
    #expect(client.readLine()?.contains("expected tablet, laptop or auto, got 'folded'") == true)
    #expect(daemon.stop() == 0)
  }

  @Test("Hooks run on a mode change with ORIENTD_MODE; orientctl hook too, without device changes")
  func hooksSeeTheMode() throws {
    let scratch = try Scratch.current()
    let daemonLog = try scratch.makeDirectory("hooks") + "/daemon"
    let clientLog = try scratch.makeDirectory("client") + "/client"
    let (run, socket) = try servingTurnableSensor([
      "--rotate", "tablet", "--hook", "echo \"$ORIENTD_MODE $ORIENTD_ORIENTATION\" >> \(daemonLog)",
    ])
    let hook = try TestProcess([
      TestPaths.orientctl, "--socket", socket, "hook", "--", "/bin/sh", "-c",
      "echo \"$ORIENTD_MODE $ORIENTD_ORIENTATION $ORIENTD_DEVICE\" >> \(clientLog)",
    ])
    #expect(waitForLines(inFile: clientLog, 1) == ["unknown normal undefined"])
    #expect(try orientctl(socket, "mode", "laptop").status == 0)
    // The daemon's hook ran for the first orientation, then for the mode.
    #expect(waitForLines(inFile: daemonLog, 2) == ["unknown normal", "laptop normal"])
    #expect(waitForLines(inFile: clientLog, 2).last == "laptop normal undefined")
    #expect(try orientctl(socket, "mode", "tablet").status == 0)
    // Hooks for a mode alone run once it has held a moment (a turn before then runs them once).
    #expect(waitForLines(inFile: daemonLog, 3).last == "tablet normal")
    try run.setRaw(256, 0, 0)
    #expect(waitForLines(inFile: daemonLog, 4).suffix(2) == ["tablet normal", "tablet left-up"])
    #expect(
      waitForLines(inFile: clientLog, 4).suffix(2) == ["tablet normal undefined", "tablet left-up undefined"])
    hook.signal(SIGTERM)
    #expect(hook.waitForExit() != nil)
    #expect(run.stop() == 0)
  }
}
