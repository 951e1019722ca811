import Foundation
import Testing

/// The shipped setup (a socket others may reach, no control group) as a hostile local user
/// meets it: control is for root, orientd's user and whoever sits at a seat, as logind tells
/// it. logind is faked for orientd alone (`FakeLogind`).
@Suite("Control is for the user at the seat: others are refused and shown no hooks", .scratch)
struct SeatControlTests {
  /// orientctl as `uid` (nobody by default) against `daemon`.
  func orientctl(_ daemon: ServedDaemon, uid: UInt32 = Unprivileged.uid, _ arguments: String...) throws -> (
    status: Int32, stdout: String, stderr: String
  ) {
    try runToCompletion(
      Unprivileged.command([TestPaths.orientctl, "--socket", daemon.socket] + arguments, uid: uid))
  }

  /// What `info` tells a client running as `uid`.
  func info(_ daemon: ServedDaemon, uid: UInt32) throws -> String {
    let input = try Scratch.current().path("info-command-\(uid)")
    try "info\n".write(toFile: input, atomically: true, encoding: .utf8)
    let socat = try #require(TestPaths.which("socat"), "socat is missing")
    let client = try TestProcess(
      Unprivileged.command([socat, "-t", "\(patience)", "-", "UNIX-CONNECT:\(daemon.socket)"], uid: uid),
      stdinPath: input)
    try #require(client.waitFor("\nok\n"), "info did not end: \(client.stdout) \(client.stderr)")
    client.kill()
    return client.stdout
  }

  @Test(
    "Without a control group, nobody may not lock, allow or set the mode while another user is at the seat")
  func nobodyNotAtTheSeatIsRefused() throws {
    let (daemon, _) = try servedDaemonWithSeatUser(1000)
    for command in [["lock", "left-up"], ["allow", "normal"], ["mode", "tablet"], ["rotate", "cw"]] {
      let refused = try orientctl(daemon, command[0], command[1])
      #expect(refused.status == 77, "\(command): \(refused)")
      #expect(refused.stderr.contains("permission-denied"), "\(command): \(refused.stderr)")
      #expect(
        refused.stderr.contains("the user of the active session at a seat (logind)"),
        "the refusal says who may: \(refused.stderr)")
    }
    let state = completeLines(try daemon.orientctl("get").stdout)
    #expect(state.contains("lock off"))
    #expect(!state.contains("mode tablet"), "\(state)")
    // Root still may.
    #expect(try daemon.orientctl("lock", "left-up").status == 0)
    #expect(daemon.stop() == 0)
  }

  @Test("nobody may control while logind puts nobody's session at the seat, and not once the seat switches")
  func seatUserMayControlUntilTheSwitch() throws {
    let (daemon, logind) = try servedDaemonWithSeatUser(Unprivileged.uid)
    let locked = try orientctl(daemon, "lock", "left-up")
    #expect(locked.status == 0, "nobody at the seat was refused: \(locked.stderr)")
    #expect(completeLines(try daemon.orientctl("get").stdout).contains("lock left-up"))
    #expect(try orientctl(daemon, "mode", "tablet").status == 0)
    // Another user's session comes to the foreground: nobody's next command is refused.
    try logind.setActive(1000)
    let after = try orientctl(daemon, "unlock")
    #expect(after.status == 77, "nobody kept control after the switch: \(after)")
    #expect(completeLines(try daemon.orientctl("get").stdout).contains("lock left-up"))
    // The new seat user may.
    #expect(try orientctl(daemon, uid: 1000, "unlock").status == 0)
    #expect(daemon.stop() == 0)
  }

  @Test("A client that stays connected loses control at its next command once another user comes to the seat")
  func switchReachesAConnectedClient() throws {
    let (daemon, logind) = try servedDaemonWithSeatUser(Unprivileged.uid)
    // nobody's commands go through a FIFO the test holds open, so the connection stays.
    let fifo = try Scratch.current().path("nobody-commands")
    try #require(mkfifo(fifo, 0o644) == 0)
    let writer = open(fifo, O_RDWR | O_CLOEXEC)
    try #require(writer >= 0)
    defer { close(writer) }
    func send(_ line: String) {
      var bytes = Array((line + "\n").utf8)
      _ = write(writer, &bytes, bytes.count)
    }
    let socat = try #require(TestPaths.which("socat"), "socat is missing")
    let client = try TestProcess(
      Unprivileged.command([socat, "-t", "\(patience)", "-", "UNIX-CONNECT:\(daemon.socket)"]),
      stdinPath: fifo)
    send("lock left-up")
    try #require(client.waitFor("\nok\n"), "nobody at the seat was not served: \(client.stdout)")
    try #require(completeLines(try daemon.orientctl("get").stdout).contains("lock left-up"))
    try logind.setActive(1000)
    send("unlock")
    #expect(client.waitFor("error permission-denied"), "the same connection kept control: \(client.stdout)")
    #expect(completeLines(try daemon.orientctl("get").stdout).contains("lock left-up"))
    client.kill()
    #expect(daemon.stop() == 0)
  }

  @Test("Without logind, nobody is refused and told to set control-group; root and orientd's user still may")
  func withoutLogindOnlyOwnersControl() throws {
    let logind = try FakeLogind(activeUID: Unprivileged.uid, booted: false)
    let daemon = try servedDaemonOpenToOthers(launcher: try logind.launcher)
    let refused = try orientctl(daemon, "lock", "left-up")
    #expect(refused.status == 77, "\(refused)")
    #expect(refused.stderr.contains("without logind"), "\(refused.stderr)")
    #expect(refused.stderr.contains("set control-group"), "\(refused.stderr)")
    #expect(try daemon.orientctl("lock", "left-up").status == 0)
    #expect(daemon.stop() == 0)
  }

  @Test("info shows hook command lines and paths to the user at the seat and to no other user")
  func infoHooksOnlyForTheSeat() throws {
    let hook = "echo secret-token-in-a-hook"
    let (daemon, logind) = try servedDaemonWithSeatUser(1000, extra: ["--hook", hook])
    let other = try info(daemon, uid: Unprivileged.uid)
    #expect(other.contains("info threshold"), "\(other)")
    #expect(!other.contains("secret-token"), "nobody's info: \(other)")
    #expect(!other.contains(daemon.statePath))
    let seat = try info(daemon, uid: 1000)
    #expect(seat.contains("info hook \(hook)"), "the seat user's info: \(seat)")
    #expect(seat.contains(daemon.statePath))
    // nobody comes to the seat: nobody sees them now.
    try logind.setActive(Unprivileged.uid)
    #expect(try info(daemon, uid: Unprivileged.uid).contains("info hook \(hook)"))
    #expect(daemon.stop() == 0)
  }

  @Test("The user at the seat gets a slot when four other users hold every slot left to others")
  func seatUserGetsAReservedSlot() throws {
    // 32 slots, 8 per user: four other users hold 30, two are kept.
    let (daemon, _) = try servedDaemonWithSeatUser(
      Unprivileged.uid, extra: ["--max-clients", "32", "--max-clients-per-user", "8"])
    var holders: [TestProcess] = []
    for uid: UInt32 in [60001, 60002, 60003, 60004] {
      let holder = try TestProcess(Unprivileged.attack("hold-connections", [daemon.socket, "8"], uid: uid))
      try #require(holder.waitFor("refused "), "uid \(uid) did not finish connecting: \(holder.stderr)")
      holders.append(holder)
    }
    let held = holders.compactMap { attackFigure("held", in: $0.stdout).flatMap { Int($0) } }.reduce(0, +)
    try #require(held == 30, "the four users hold \(held) of 32 slots")
    // A fifth user, not at the seat, is refused ...
    let fifth = try orientctl(daemon, uid: 60005, "get")
    #expect(fifth.status == 69, "\(fifth)")
    #expect(fifth.stderr.contains("too-many-clients"), "\(fifth.stderr)")
    // ... and the seat's user is served.
    let seat = try orientctl(daemon, "get")
    #expect(seat.status == 0, "the seat user was refused: \(seat.stderr)")
    for holder in holders { holder.kill() }
    #expect(daemon.stop() == 0)
  }
}
