import Foundation
import Testing

@Suite("An allowed set that leaves out the lock", .scratch)
struct AllowReleasesLockTests {
  @Test(
    "allow without the locked orientation releases the lock: clients see it, the log says it, a restart keeps it"
  )
  func allowReleasesLockAcrossRestart() throws {
    // nobody must reach the socket, and logind puts nobody at the seat so that nobody may control.
    let directory = try Unprivileged.openDirectory(in: try Scratch.current())
    let logind = try FakeLogind(activeUID: Unprivileged.uid)
    var daemon = try ServedDaemon(directory: directory, launcher: try logind.launcher)
    let subscriber = try TestClient(path: daemon.socket)
    #expect(subscriber.readLines(greetingLines) == normalSnapshot)
    func orientctl(_ arguments: String...) throws -> Int32 {
      try runToCompletion(
        try Unprivileged.command([TestPaths.orientctl, "--socket", daemon.socket] + arguments)
      )
      .status
    }

    #expect(try orientctl("lock", "left-up") == 0)
    #expect(subscriber.readLines(2) == ["lock left-up", "orientation left-up"])
    #expect(try orientctl("allow", "normal") == 0)
    // The allowed set, then the release it causes, then the orientation the screen follows.
    #expect(subscriber.readLines(3) == ["allowed normal", "lock off", "orientation normal"])
    #expect(daemon.process.waitFor("info: lock off", inStderr: true))
    #expect(daemon.stop() == 0)
    #expect(
      fileText(daemon.statePath)
        == "# orientd-state 1\nlock off\nallowed normal\n" + "allowed-chosen yes\nconfig-allowed none\n")

    daemon = try ServedDaemon(directory: directory, launcher: try logind.launcher)
    let restarted = try TestClient(path: daemon.socket)
    #expect(
      restarted.readLines(greetingLines) == [
        "sensor online", "device normal", "orientation normal", "lock off", "allowed normal",
        "mode unknown",
      ])
    #expect(
      !daemon.process.stderr.contains("unlocking"), "a restart found a lock to drop: \(daemon.process.stderr)"
    )
    #expect(daemon.stop() == 0)
  }
}
