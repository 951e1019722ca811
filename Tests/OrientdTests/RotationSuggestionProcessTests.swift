import Foundation
import Testing

@Suite("A rotation suggestion from a real orientd on a fake accelerometer", .scratch)
struct RotationSuggestionProcessTests {
  @Test(
    "Locked and turned, the device's orientation is suggested to orientctl monitor and a JSON client, and orientctl accept-suggestion turns the screen there and keeps it locked"
  )
  func suggestAndAccept() throws {
    let (run, socket) = try servingFakeSensor(
      [.accelerometer()], extra: ["--settle", "0", "--suggest-hold", "100"])
    func orientctl(_ arguments: String...) throws -> (status: Int32, stdout: String, stderr: String) {
      try runToCompletion([TestPaths.orientctl, "--socket", socket] + arguments)
    }
    #expect(try orientctl("lock", "normal").status == 0)
    let monitor = try TestProcess([TestPaths.orientctl, "--socket", socket, "monitor"])
    defer { monitor.kill() }
    #expect(monitor.waitFor("mode unknown\n"), "monitor: \(monitor.stdout) \(monitor.stderr)")
    let json = try TestClient(path: socket)
    json.send("format json\nsubscribe lock,orientation,suggestion\n")
    #expect(json.readLines(through: "{\"reply\":\"ok\"}").last == "{\"reply\":\"ok\"}")
    #expect(json.readLines(through: "{\"reply\":\"ok\"}").last == "{\"reply\":\"ok\"}")

    try run.setRaw(256, 0, 0)
    #expect(monitor.waitFor("suggestion left-up\n"), "monitor: \(monitor.stdout) \(run.process.stderr)")
    #expect(json.readLine() == "{\"event\":\"suggestion\",\"value\":\"left-up\"}")
    #expect(try orientctl("get", "suggestion").stdout == "left-up\n")
    #expect(try orientctl("get", "orientation").stdout == "normal\n", "a suggestion turns nothing")

    let accepted = try orientctl("accept-suggestion")
    #expect(accepted.status == 0, "\(accepted.stderr)")
    #expect(
      json.readLines(3) == [
        "{\"event\":\"lock\",\"value\":\"left-up\"}", "{\"event\":\"orientation\",\"value\":\"left-up\"}",
        "{\"event\":\"suggestion\",\"value\":\"none\"}",
      ])
    #expect(monitor.waitFor("suggestion none\n"))
    let lines = monitor.stdoutLines
    let made = try #require(lines.firstIndex(of: "suggestion left-up"))
    #expect(Array(lines[(made + 1)...]) == ["lock left-up", "orientation left-up", "suggestion none"])
    #expect(try orientctl("get", "lock").stdout == "left-up\n")

    // Nothing is suggested now: accepting again is refused, and says why.
    let again = try orientctl("accept-suggestion")
    #expect(again.status == 1)
    #expect(
      again.stderr.contains("orientd refused: no-suggestion no rotation is suggested now"), "\(again.stderr)")
    #expect(run.stop() == 0)
  }

  @Test("A suggestion nobody takes expires after suggest-timeout, and accepting it then is refused")
  func expires() throws {
    let (run, socket) = try servingFakeSensor(
      [.accelerometer()], extra: ["--settle", "0", "--suggest-hold", "0", "--suggest-timeout", "0.3"])
    let client = try TestClient(path: socket)
    client.send("lock normal\nsubscribe suggestion\n")
    #expect(client.readLines(through: "ok").last == "ok")
    #expect(client.readLines(through: "ok").last == "ok")
    try run.setRaw(-256, 0, 0)
    #expect(client.readLine() == "suggestion right-up")
    #expect(client.readLine() == "suggestion none")
    client.send("accept-suggestion\n")
    #expect(
      client.readLine() == "error no-suggestion no rotation is suggested now (none was made, or it went)")
    client.send("get lock\n")
    #expect(client.readLines(through: "ok") == ["lock normal", "ok"])
    #expect(run.stop() == 0)
  }

  @Test(
    "orientd's own hook notify, with a stand-in notify-send that picks the action, has the real orientctl accept the suggestion"
  )
  func notifyHookAccepts() throws {
    let stubs = try Scratch.current().makeDirectory("stubs")
    let log = stubs + "/notify-send.log"
    try "#!/bin/sh\nprintf '%s\\n' \"$*\" >> \(log)\necho accept\n".write(
      toFile: stubs + "/notify-send", atomically: true, encoding: .utf8)
    chmod(stubs + "/notify-send", 0o755)
    try FileManager.default.createSymbolicLink(
      atPath: stubs + "/orientctl", withDestinationPath: TestPaths.orientctl)
    let directory = try Scratch.current().makeDirectory("daemon")
    let socket = directory + "/s"
    // orientd's hooks get its PATH and ORIENTD_ variables: orientctl finds the socket there.
    let run = try FakeSensorRun(
      devices: [.accelerometer()],
      arguments: [
        "--settle", "0", "--suggest-hold", "0", "--socket", socket, "--state", directory + "/state",
        "--hook", TestPaths.packageRoot + "/config/hooks/notify",
      ],
      launcher: ["/usr/bin/env", "PATH=\(stubs):/usr/bin:/bin", "ORIENTD_SOCKET=\(socket)"])
    try #require(run.process.waitFor("info: orientation", inStderr: true), "\(run.process.stderr)")
    let client = try TestClient(path: socket)
    client.send("lock normal\nsubscribe lock,suggestion\n")
    #expect(client.readLines(through: "ok").last == "ok")
    #expect(client.readLines(through: "ok").last == "ok")
    try run.setRaw(0, 256, 0)
    #expect(client.readLine() == "suggestion bottom-up")
    // The hook showed it, the stand-in chose the action, and orientctl accepted it.
    #expect(client.readLine() == "lock bottom-up", "\(run.process.stderr)")
    #expect(client.readLine() == "suggestion none")
    #expect(completeLines(fileText(log)).count == 1)
    #expect(fileText(log).contains("Turn to bottom-up"))
    #expect(run.stop() == 0)
  }
}
