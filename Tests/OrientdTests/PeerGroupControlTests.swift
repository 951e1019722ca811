import Foundation
import Testing

@Suite("Control-group membership from the peer's own groups", .scratch)
struct PeerGroupControlTests {
  @Test("nobody given the control group may control; a listed member running without it may not")
  func peerGroupsDecide() throws {
    let setpriv = try #require(TestPaths.which("setpriv"), "setpriv is missing (util-linux)")
    let group = try SocketRobustnessTests.privateControlGroup()
    let daemon = try servedDaemonOpenToOthers(
      extra: ["--control-group", group.name], launcher: group.launcher)
    func orientctl(_ credentials: [String], _ arguments: String...) throws -> (
      status: Int32, stdout: String, stderr: String
    ) {
      try runToCompletion(
        [setpriv] + credentials + [TestPaths.orientctl, "--socket", daemon.socket] + arguments)
    }
    let nobody = "\(Unprivileged.uid)"

    // nobody, whom the database puts in no such group, runs with it as a supplementary group
    // (not its effective group): the kernel's word counts.
    let given = try orientctl(
      ["--reuid=\(nobody)", "--regid=\(Unprivileged.gid)", "--groups=\(group.gid)"], "lock", "left-up")
    #expect(given.status == 0, "refused: \(given.stderr)")
    #expect(completeLines(try daemon.orientctl("get").stdout).contains("lock left-up"))

    // The member listed in the group database, running without any supplementary group.
    let cleared = try orientctl(
      ["--reuid=\(group.memberUID)", "--regid=\(Unprivileged.gid)", "--clear-groups"], "unlock")
    #expect(cleared.status == 77)
    #expect(cleared.stderr.contains("permission-denied"))
    #expect(completeLines(try daemon.orientctl("get").stdout).contains("lock left-up"))
    #expect(daemon.stop() == 0)
  }
}
