import Foundation
import Testing

/// `supports LIST`: each socket client its own supported orientations, as an iOS screen
/// declares its own. Real clients (raw sockets, socat, orientctl) against orientd reading a
/// faked accelerometer that the tests turn.
@Suite("Each client its own supported orientations", .scratch)
struct SupportedOrientationsTests {
  /// orientd on a faked accelerometer held normal, settling in 50 ms.
  func servingNormal() throws -> (run: FakeSensorRun, socket: String) {
    try servingFakeSensor(
      [.accelerometer(raw: (0, -256, 0))], extra: ["--interval", "10", "--settle", "50"],
      ready: "info: orientation normal")
  }

  @Test("Two clients with different sets get different orientation lines for the same device change")
  func twoSetsSameChange() throws {
    let (run, socket) = try servingNormal()
    let landscape = try TestClient(path: socket)
    let portrait = try TestClient(path: socket)
    let plain = try TestClient(path: socket)
    for client in [landscape, portrait, plain] { #expect(client.readLines(greetingLines) == normalSnapshot) }
    landscape.send("supports normal,bottom-up\n")
    #expect(landscape.readLine() == "ok", "normal is already the landscape client's orientation")
    portrait.send("format json\nsupports left-up, right-up\n")
    #expect(
      portrait.readLines(3) == [
        #"{"reply":"ok"}"#, #"{"event":"orientation","value":"undefined"}"#, #"{"reply":"ok"}"#,
      ])

    try run.setRaw(256, 0, 0)
    #expect(landscape.readLine() == "device left-up")
    #expect(
      portrait.readLines(2) == [
        #"{"event":"device","value":"left-up"}"#, #"{"event":"orientation","value":"left-up"}"#,
      ])
    #expect(plain.readLines(2) == ["device left-up", "orientation left-up"])

    try run.setRaw(0, 256, 0)
    #expect(landscape.readLines(2) == ["device bottom-up", "orientation bottom-up"])
    #expect(portrait.readLine() == #"{"event":"device","value":"bottom-up"}"#)
    #expect(plain.readLines(2) == ["device bottom-up", "orientation bottom-up"])

    // Each one's get answers with its own orientation; nothing else came meanwhile.
    landscape.send("get\n")
    #expect(
      landscape.readLines(through: "ok").filter { $0.hasPrefix("orientation") } == ["orientation bottom-up"])
    portrait.send("format text\nget\n")
    let state = portrait.readLines(through: "allowed normal,left-up,bottom-up,right-up")
    #expect(state.contains("orientation left-up"), "\(state)")
    #expect(portrait.readLines(through: "ok").last == "ok")
    #expect(plain.linesBeforePong() == [])
    // The daemon's own orientation (its log, D-Bus and the hooks) is the policy's.
    #expect(run.process.stderr.contains("info: orientation bottom-up"), "\(run.process.stderr)")
    #expect(run.stop() == 0)
  }

  @Test("The lock wins over a client's set; supports all gives the client the policy's orientation back")
  func lockWinsAndSupportsAllEnds() throws {
    let (run, socket) = try servingNormal()
    let client = try TestClient(path: socket)
    #expect(client.readLines(greetingLines) == normalSnapshot)
    client.send("supports left-up,right-up\n")
    #expect(client.readLines(2) == ["orientation undefined", "ok"])
    #expect(try runToCompletion([TestPaths.orientctl, "--socket", socket, "lock", "bottom-up"]).status == 0)
    #expect(client.readLines(2) == ["lock bottom-up", "orientation bottom-up"])
    #expect(try runToCompletion([TestPaths.orientctl, "--socket", socket, "unlock"]).status == 0)
    #expect(client.readLines(2) == ["lock off", "orientation undefined"])
    client.send("supports all\n")
    #expect(client.readLines(2) == ["orientation normal", "ok"])
    try run.setRaw(256, 0, 0)
    #expect(client.readLines(2) == ["device left-up", "orientation left-up"])
    #expect(run.stop() == 0)
  }

  @Test("An allow that leaves none of a client's set makes its orientation undefined until one is allowed")
  func allowEmptiesIntersection() throws {
    let (run, socket) = try servingNormal()
    let client = try TestClient(path: socket)
    _ = client.readLines(greetingLines)
    client.send("supports normal,bottom-up\n")
    #expect(client.readLine() == "ok")
    try run.setRaw(256, 0, 0)
    #expect(client.readLine() == "device left-up")
    let orientctl = { (arguments: [String]) in
      try runToCompletion([TestPaths.orientctl, "--socket", socket] + arguments)
    }
    #expect(try orientctl(["allow", "left-up,right-up"]).status == 0)
    #expect(client.readLines(2) == ["allowed left-up,right-up", "orientation undefined"])
    // The client keeps its set: widening the allowed set gives it its orientation back.
    #expect(try orientctl(["allow", "all"]).status == 0)
    #expect(client.readLines(2) == ["allowed normal,left-up,bottom-up,right-up", "orientation normal"])
    #expect(run.stop() == 0)
  }

  @Test("A client's set goes with its connection; another client of the same set keeps its own lines")
  func closingEndsIt() throws {
    let (run, socket) = try servingNormal()
    let first = try TestClient(path: socket)
    let second = try TestClient(path: socket)
    for client in [first, second] {
      _ = client.readLines(greetingLines)
      client.send("supports normal\n")
      #expect(client.readLine() == "ok")
    }
    first.send("quit\n")
    #expect(first.waitForClose())
    try run.setRaw(256, 0, 0)
    #expect(second.readLine() == "device left-up")
    #expect(second.linesBeforePong() == [], "normal is the only orientation it supports")
    // A newcomer sees the policy's orientation, and declares the same set afresh.
    let third = try TestClient(path: socket)
    #expect(third.readLines(greetingLines).contains("orientation left-up"))
    third.send("supports normal\n")
    #expect(third.readLines(2) == ["orientation normal", "ok"])
    #expect(run.stop() == 0)
  }

  @Test("A client that may not control may still declare the orientations it supports")
  func noControlNeeded() throws {
    let daemon = try servedDaemonOpenToOthers(extra: ["--control-group", "root"])
    // The device is normal; nobody's monitor supports only the two landscape orientations
    // but left-up, the policy's screen is normal: it prints undefined, then follows the lock.
    let monitor = try TestProcess(
      try Unprivileged.command([
        TestPaths.orientctl, "--socket", daemon.socket, "monitor", "--supports", "left-up,right-up", "--once",
      ]))
    #expect(monitor.waitForLines(greetingLines).contains("orientation undefined"), "\(monitor.stderr)")
    let denied = try runToCompletion(
      try Unprivileged.command([TestPaths.orientctl, "--socket", daemon.socket, "lock", "right-up"]))
    #expect(denied.status == 77, "nobody may not control: \(denied)")
    #expect(try daemon.orientctl("lock", "right-up").status == 0)
    #expect(monitor.waitForLines(greetingLines + 2).suffix(2) == ["lock right-up", "orientation right-up"])
    #expect(daemon.stop() == 0)
  }

  @Test("orientctl monitor --supports prints the state and the changes within its set, in text and JSON")
  func monitorSupports() throws {
    let (run, socket) = try servingNormal()
    let text = try TestProcess([
      TestPaths.orientctl, "--socket", socket, "monitor", "--supports", "left-up,right-up", "--once",
    ])
    let json = try TestProcess([
      TestPaths.orientctl, "--socket", socket, "monitor", "--json", "--supports=left-up,right-up", "--once",
    ])
    #expect(
      text.waitForLines(greetingLines) == [
        "sensor online", "device normal", "orientation undefined", "lock off",
        "allowed normal,left-up,bottom-up,right-up", "mode unknown",
      ])
    #expect(json.waitForLines(greetingLines).contains(#"{"event":"orientation","value":"undefined"}"#))
    try run.setRaw(256, 0, 0)
    #expect(text.waitForLines(8).suffix(2) == ["device left-up", "orientation left-up"])
    try run.setRaw(0, 256, 0)
    #expect(text.waitForLines(9).last == "device bottom-up")
    try run.setRaw(-256, 0, 0)
    #expect(text.waitForLines(11).suffix(2) == ["device right-up", "orientation right-up"])
    #expect(
      json.waitForLines(11).suffix(5) == [
        #"{"event":"device","value":"left-up"}"#, #"{"event":"orientation","value":"left-up"}"#,
        #"{"event":"device","value":"bottom-up"}"#, #"{"event":"device","value":"right-up"}"#,
        #"{"event":"orientation","value":"right-up"}"#,
      ])
    #expect(run.stop() == 0)
    #expect(text.waitForExit() == 69)
    #expect(!text.stdout.contains("ok"), "replies are not state lines: \(text.stdout)")
  }

  @Test("orientctl monitor --supports with none of its set allowed exits 1 saying why; a bad list exits 64")
  func monitorSupportsRefused() throws {
    let daemon = try ServedDaemon()
    #expect(try daemon.orientctl("allow", "normal").status == 0)
    let refused = try daemon.orientctl("monitor", "--supports", "left-up")
    #expect(refused.status == 1)
    #expect(
      refused.stderr.contains("orientd refused: not-allowed none of left-up is allowed (allowed: normal)"),
      "\(refused.stderr)")
    #expect(refused.stdout.isEmpty, "nothing is printed as this client's state: \(refused.stdout)")
    for bad in [["--supports"], ["--supports", "up"], ["--supports="]] {
      let usage = try runToCompletion([TestPaths.orientctl, "--socket", daemon.socket, "monitor"] + bad)
      #expect(usage.status == 64, "\(bad): \(usage)")
      #expect(usage.stderr.contains("monitor --supports"), "\(bad): \(usage.stderr)")
    }
    #expect(daemon.stop() == 0)
  }

  @Test("orientctl hook --supports runs its command only for the orientations of its set")
  func hookSupports() throws {
    let (run, socket) = try servingNormal()
    let log = try Scratch.current().path("kiosk.log")
    let hook = try TestProcess([
      TestPaths.orientctl, "--socket", socket, "hook", "--supports", "left-up,right-up", "--timeout", "5",
      "--", "/bin/sh", "-c", "echo \"$ORIENTD_PREVIOUS>$ORIENTD_ORIENTATION\" >> \(log)",
    ])
    #expect(hook.waitFor("connected to orientd", inStderr: true), "\(hook.stderr)")
    // normal is not the hook's: it does not run until the device takes one of its two.
    try run.setRaw(256, 0, 0)
    #expect(waitForFile(log, toContain: "undefined>left-up"), "\(hook.stderr)")
    try run.setRaw(0, 256, 0)
    try run.setRaw(-256, 0, 0)
    #expect(waitForFile(log, toContain: "left-up>right-up"), "\(hook.stderr)")
    #expect(try String(contentsOfFile: log, encoding: .utf8) == "undefined>left-up\nleft-up>right-up\n")
    hook.signal(SIGTERM)
    #expect(hook.waitForExit() == 0)
    #expect(run.stop() == 0)
  }

  @Test("orientctl hook --supports with none of its set allowed exits 1 without running its command")
  func hookSupportsRefused() throws {
    let daemon = try ServedDaemon()
    #expect(try daemon.orientctl("allow", "normal").status == 0)
    let log = try Scratch.current().path("kiosk.log")
    let hook = try TestProcess([
      TestPaths.orientctl, "--socket", daemon.socket, "hook", "--supports", "bottom-up",
      "/bin/sh", "-c", "echo ran >> \(log)",
    ])
    #expect(hook.waitForExit() == 1)
    #expect(
      hook.stderr.contains("orientd refused supports bottom-up: not-allowed none of bottom-up is allowed"),
      "\(hook.stderr)")
    #expect(!FileManager.default.fileExists(atPath: log))
    #expect(daemon.stop() == 0)
  }

  @Test("orientctl hook --oneshot --supports runs its command once, for the orientation within its set")
  func oneshotSupports() throws {
    let daemon = try ServedDaemon(holding: (1, 0, 0))
    let oneshot = { (supports: [String]) in
      try runToCompletion(
        [TestPaths.orientctl, "--socket", daemon.socket, "hook", "--oneshot"] + supports
          + ["--", "/bin/sh", "-c", "echo \"$ORIENTD_ORIENTATION\""])
    }
    #expect(try oneshot([]).stdout == "left-up\n")
    let landscape = try oneshot(["--supports", "normal,bottom-up"])
    #expect(landscape.status == 0, "\(landscape.stderr)")
    #expect(landscape.stdout == "undefined\n")
    #expect(try daemon.orientctl("lock", "bottom-up").status == 0)
    #expect(try oneshot(["--supports=normal"]).stdout == "bottom-up\n", "the lock wins")
    #expect(try daemon.orientctl("allow", "bottom-up").status == 0)
    let refused = try oneshot(["--supports", "normal"])
    #expect(refused.status == 1)
    #expect(refused.stdout.isEmpty, "refused, the command does not run")
    #expect(daemon.stop() == 0)
  }
}
