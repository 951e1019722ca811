import Foundation
import Testing

@Suite("Serving the orientation protocol on the socket", .scratch)
struct SocketProtocolTests {
  @Test("A socat subscriber gets the state on connect, then each change as it happens")
  func subscriberGetsStateThenChanges() throws {
    let (run, socket) = try servingFakeSensor(
      [.accelerometer(raw: (0, -256, 0))], extra: ["--interval", "10", "--settle", "50"],
      ready: "info: orientation normal")
    let subscriber = try socatClient(socket: socket)
    #expect(subscriber.process.waitForLines(greetingLines) == normalSnapshot)

    try run.setRaw(256, 0, 0)
    #expect(subscriber.process.waitForLines(8).suffix(2) == ["device left-up", "orientation left-up"])
    try run.setRaw(0, 0, -256)
    #expect(subscriber.process.waitForLines(9).last == "device face-up")
    #expect(run.stop() == 0)
    #expect(subscriber.process.waitForExit() != nil, "socat should see the daemon close")
  }

  @Test("Locked, device events keep flowing while the orientation stays; unlock resyncs at once")
  func lockKeepsOrientation() throws {
    let (run, socket) = try servingFakeSensor(
      [.accelerometer(raw: (0, -256, 0))], extra: ["--interval", "10", "--settle", "50"],
      ready: "info: orientation normal")
    let subscriber = try TestClient(path: socket)
    #expect(subscriber.readLines(greetingLines) == normalSnapshot)

    let lock = try runToCompletion([TestPaths.orientctl, "--socket", socket, "lock"])
    #expect(lock.status == 0)
    #expect(subscriber.readLine() == "lock normal")

    try run.setRaw(256, 0, 0)
    #expect(subscriber.readLine() == "device left-up")
    try run.setRaw(0, 256, 0)
    #expect(subscriber.readLine() == "device bottom-up")
    let state = try runToCompletion([TestPaths.orientctl, "--socket", socket, "get"])
    #expect(
      completeLines(state.stdout) == [
        "sensor online", "device bottom-up", "orientation normal", "lock normal",
        "allowed normal,left-up,bottom-up,right-up", "mode unknown",
      ])

    #expect(try runToCompletion([TestPaths.orientctl, "--socket", socket, "unlock"]).status == 0)
    #expect(subscriber.readLines(2) == ["lock off", "orientation bottom-up"])
    #expect(run.stop() == 0)
  }

  @Test("rotate cw and ccw lock to the neighbours, skipping the orientations that are not allowed")
  func rotate() throws {
    let daemon = try ServedDaemon()
    let subscriber = try TestClient(path: daemon.socket)
    #expect(subscriber.readLines(greetingLines) == normalSnapshot)

    #expect(try daemon.orientctl("rotate", "cw").status == 0)
    #expect(subscriber.readLines(2) == ["lock left-up", "orientation left-up"])
    #expect(try daemon.orientctl("rotate", "cw").status == 0)
    #expect(subscriber.readLines(2) == ["lock bottom-up", "orientation bottom-up"])
    #expect(try daemon.orientctl("rotate", "ccw").status == 0)
    #expect(try daemon.orientctl("rotate", "ccw").status == 0)
    #expect(
      subscriber.readLines(4) == ["lock left-up", "orientation left-up", "lock normal", "orientation normal"])

    #expect(try daemon.orientctl("allow", "normal,left-up").status == 0)
    #expect(subscriber.readLine() == "allowed normal,left-up")
    // Counter-clockwise from normal, right-up and bottom-up are not allowed: left-up is next.
    let skipping = try daemon.orientctl("rotate", "ccw")
    #expect(skipping.status == 0, "\(skipping.stderr)")
    #expect(subscriber.readLines(2) == ["lock left-up", "orientation left-up"])
    // Locked to left-up, clockwise goes round to normal (it used to fail: not-allowed bottom-up).
    let back = try daemon.orientctl("rotate", "cw")
    #expect(back.status == 0, "\(back.stderr)")
    #expect(subscriber.readLines(2) == ["lock normal", "orientation normal"])
    #expect(
      completeLines(try daemon.orientctl("get").stdout) == [
        "sensor online", "device normal", "orientation normal", "lock normal", "allowed normal,left-up",
        "mode unknown",
      ])
    #expect(subscriber.linesBeforePong() == [], "nothing else changed")
    #expect(daemon.stop() == 0)
  }

  @Test("allow all allows the four orientations again, from the socket and from orientctl")
  func allowAll() throws {
    let daemon = try ServedDaemon()
    let client = try TestClient(path: daemon.socket)
    #expect(client.readLines(greetingLines) == normalSnapshot)
    #expect(try daemon.orientctl("allow", "normal").status == 0)
    #expect(client.readLine() == "allowed normal")
    client.send("allow all\n")
    #expect(client.readLines(through: "ok") == ["allowed normal,left-up,bottom-up,right-up", "ok"])
    #expect(try daemon.orientctl("allow", "left-up").status == 0)
    // The device has only been normal: no allowed orientation was seen.
    #expect(client.readLines(2) == ["allowed left-up", "orientation undefined"])
    let all = try daemon.orientctl("allow", "all")
    #expect(all.status == 0, "\(all.stderr)")
    #expect(client.readLines(2) == ["allowed normal,left-up,bottom-up,right-up", "orientation normal"])
    #expect(daemon.stop() == 0)
  }

  @Test("echo get | socat prints the state and ok, then socat exits")
  func oneShotSocat() throws {
    let daemon = try ServedDaemon()
    let socat = try #require(TestPaths.which("socat"))
    let sh = try #require(TestPaths.which("sh"))
    let result = try runToCompletion([sh, "-c", "echo get | \(socat) - UNIX-CONNECT:\(daemon.socket)"])
    #expect(result.status == 0)
    #expect(result.stdout == (normalSnapshot + normalSnapshot + ["ok"]).joined(separator: "\n") + "\n")
    #expect(daemon.stop() == 0)
  }

  @Test("SIGTERM closes the clients, removes the socket file and exits 0")
  func cleanExit() throws {
    let daemon = try ServedDaemon()
    let client = try TestClient(path: daemon.socket)
    _ = client.readLines(greetingLines)
    #expect(daemon.stop() == 0)
    #expect(client.waitForClose())
    #expect(!FileManager.default.fileExists(atPath: daemon.socket))
  }
}
