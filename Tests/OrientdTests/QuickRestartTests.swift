import Foundation
import Testing

/// A new orientd started on the same socket while the old one leaves.
@Suite("A quick restart on the same socket", .scratch)
struct QuickRestartTests {
  @Test(
    "SIGTERM and an immediate restart never leave a listening orientd without its socket file (15 rounds)"
  )
  func restartKeepsTheSocketFile() throws {
    let scratch = try Scratch.current()
    let directory = try scratch.makeDirectory("restart")
    let socket = directory + "/race.sock"
    // Each orientd has a state of its own: only the socket is shared.
    func start(_ round: Int, _ which: String) throws -> TestProcess {
      try TestProcess([
        TestPaths.orientd, "--demo", "--socket", socket, "--state", directory + "/state-\(round)-\(which)",
      ])
    }
    var served = 0
    for round in 0..<15 {
      let leaving = try start(round, "old")
      try #require(leaving.waitFor("listening on", inStderr: true), "\(leaving.stderr)")
      leaving.signal(SIGTERM)
      // At once, as `systemctl restart` would not wait but a user at a shell might.
      let arriving = try start(round, "new")
      #expect(leaving.waitForExit() == 0, "round \(round): \(leaving.stderr)")
      // The new one either found the old one still listening and said so (69), or serves.
      waitUntil { arriving.stderr.contains("listening on") || !arriving.isRunning }
      if arriving.isRunning {
        served += 1
        #expect(
          FileManager.default.fileExists(atPath: socket),
          "round \(round): the new orientd listens but its socket file is gone")
        let state = try runToCompletion([TestPaths.orientctl, "--socket", socket, "get", "sensor"])
        #expect(state.status == 0, "round \(round): \(state.stderr)")
        arriving.signal(SIGTERM)
        #expect(arriving.waitForExit() == 0)
      } else {
        #expect(arriving.waitForExit() == 69, "round \(round): \(arriving.stderr)")
        #expect(arriving.stderr.contains("another orientd is listening on \(socket)"), "\(arriving.stderr)")
      }
      #expect(!FileManager.default.fileExists(atPath: socket), "round \(round): a stale socket file stays")
    }
    // The premise: most rounds got the new orientd serving, so the race was run.
    #expect(served >= 5, "only \(served) of 15 rounds had the new orientd serving")
  }
}
