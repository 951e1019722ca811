import Foundation
import Testing

/// Attacks a local user can make on the socket, run as nobody: none may exhaust orientd's
/// memory, stall it, lock others out or lose an acknowledged change.
@Suite("Hostile clients cannot starve orientd or its other clients", .scratch)
struct HostileClientTests {
  @Test("A client that floods pings and reads its pongs slowly costs orientd bounded memory")
  func slowReaderHasBoundedMemory() throws {
    let daemon = try servedDaemonOpenToOthers()
    let before = try #require(residentKilobytes(of: daemon.process.pid))
    // orientd serves one client's pings at its own pace (about 15,000 a second on a quiet
    // machine, half that beside two virtual machines): the attack has two patiences to read.
    let attack = try TestProcess(
      Unprivileged.attack("slow-reader", [daemon.socket, "1500000", "\(2 * patience)"]))
    try #require(attack.waitForExit(timeout: 3 * patience) == 0, "the attack failed: \(attack.stderr)")
    // Premise: 300,000 pongs went through orientd's queue. Kept after sending, they would
    // cost it over 20 MB.
    let read = try #require(attackFigure("read_bytes", in: attack.stdout).flatMap { Int($0) })
    #expect(read >= 1_500_000, "the attacker read too little for the test to mean anything")
    let after = try #require(residentKilobytes(of: daemon.process.pid))
    #expect(after - before < 8 * 1024, "orientd grew from \(before) kB to \(after) kB")
    #expect(try daemon.orientctl("get").status == 0)
  }

  @Test("A control flood is saved a few times a second, not once per command, and logs are capped")
  func controlFloodIsCoalesced() throws {
    // The flood comes from the user at the seat, who may control.
    let (daemon, _) = try servedDaemonWithSeatUser()
    // Each save renames a new file onto the state file's name.
    let saves = try RenameCounter(directory: daemon.directory, name: "state")
    let start = ContinuousClock.now
    let flood = try TestProcess(
      Unprivileged.attack("control-flood", [daemon.socket, "64", "6", "rotate cw"]))
    try #require(flood.waitForExit(timeout: 2 * patience) == 0, "the flood failed: \(flood.stderr)")
    // While the flood's last commands are served, another client is answered.
    #expect(try daemon.orientctl("get").status == 0)
    let renames = try saves.count()
    let logged = occurrences(of: "info: lock ", in: daemon.process.stderr)
    let elapsed = Int(seconds(ContinuousClock.now - start).rounded(.up)) + 1
    // What orientd promises: at most 4 saves and 20 change lines in any second.
    let (savesAllowed, linesAllowed) = (4 * elapsed, 20 * elapsed + 1)
    let replies = try #require(attackFigure("replies", in: flood.stdout).flatMap { Int($0) })
    // Only a flood of more changes than that shows the limits; 64 clients give several
    // times as many even on a loaded machine.
    try #require(
      replies > 2 * savesAllowed && replies > linesAllowed,
      "the flood got too few replies (\(replies) in about \(elapsed) s) for the test to mean anything")
    #expect(renames >= 1, "no save was seen")
    #expect(renames <= savesAllowed, "\(renames) saves for \(replies) changes in about \(elapsed) s")
    #expect(
      logged <= linesAllowed, "\(logged) lock lines logged for \(replies) changes in about \(elapsed) s")
  }

  @Test("An acknowledged lock survives kill -9 at once")
  func acknowledgedLockSurvivesKill() throws {
    let daemon = try servedDaemonOpenToOthers()
    #expect(try daemon.orientctl("lock", "left-up").status == 0)
    daemon.process.kill()
    _ = daemon.process.waitForExit()
    #expect(fileText(daemon.statePath).contains("lock left-up"))
  }

  @Test("One user cannot take every slot; root still gets in and the refused client is told why")
  func oneUserCannotTakeEverySlot() throws {
    let daemon = try servedDaemonOpenToOthers(extra: ["--max-clients", "16"])
    let holder = try TestProcess(Unprivileged.attack("hold-connections", [daemon.socket, "16"]))
    try #require(holder.waitFor("refused "), "the attacker did not finish connecting: \(holder.stderr)")
    #expect(attackFigure("held", in: holder.stdout) == "4")
    #expect(attackFigure("refused", in: holder.stdout) == "12")
    #expect(attackFigure("refusal", in: holder.stdout)?.hasPrefix("error too-many-clients") == true)
    #expect(try daemon.orientctl("get").status == 0)
    let refused = try runToCompletion(
      Unprivileged.command([TestPaths.orientctl, "--socket", daemon.socket, "get"]))
    #expect(refused.status == 69)
    #expect(refused.stderr.contains("too-many-clients"), "orientctl said: \(refused.stderr)")
    holder.kill()
  }

  @Test("A command sent just before the client closes is still carried out")
  func commandBeforeCloseIsServed() throws {
    let (daemon, _) = try servedDaemonWithSeatUser()
    let subscriber = try TestClient(path: daemon.socket)
    _ = subscriber.readLines(greetingLines)
    for round in 0..<20 {
      let target = round % 2 == 0 ? "left-up" : "right-up"
      let sender = try runToCompletion(
        Unprivileged.attack("send-and-close", [daemon.socket, "1", "lock \(target)"]))
      try #require(sender.status == 0, "the sender failed: \(sender.stderr)")
      let lines = subscriber.readLines(through: "lock \(target)")
      try #require(lines.last == "lock \(target)", "round \(round): the lock was lost; got \(lines)")
    }
  }

  @Test("Commands a client sent before closing are served one round's worth at most, at the usual pace")
  func closedConnectionCannotFlood() throws {
    let (daemon, _) = try servedDaemonWithSeatUser()
    let subscriber = try TestClient(path: daemon.socket)
    _ = subscriber.readLines(greetingLines)
    let connected = openSockets(of: daemon.process.pid)
    let sender = try runToCompletion(
      Unprivileged.attack("send-and-close", [daemon.socket, "1", "rotate cw", "1000"]))
    try #require(sender.status == 0, "the sender failed: \(sender.stderr)")
    // Premise: the closed connection was served (it turned the screen at least once) ...
    #expect(subscriber.readLine()?.hasPrefix("lock ") == true)
    // ... and then dropped, with what it sent only partly served.
    try #require(
      waitUntil { openSockets(of: daemon.process.pid) == connected },
      "the closed connection was never dropped")
    let locks = [subscriber.readLine() ?? ""] + subscriber.linesBeforePong()
    let turns = 1 + locks.filter { $0.hasPrefix("lock ") }.count
    // At most a round's worth before orientd sees the close, and one round's worth after.
    #expect(turns <= 2 * 16, "a closed connection turned the screen \(turns) times")
  }

  @Test("Several users together cannot take the slots kept for root")
  func severalUsersCannotTakeEverySlot() throws {
    // 16 slots: 4 per user, one kept for root and orientd's user.
    let daemon = try servedDaemonOpenToOthers(extra: ["--max-clients", "16"])
    var holders: [TestProcess] = []
    for uid: UInt32 in [65534, 65533, 65532, 65531] {
      let holder = try TestProcess(Unprivileged.attack("hold-connections", [daemon.socket, "4"], uid: uid))
      try #require(holder.waitFor("refused "), "uid \(uid) did not finish connecting: \(holder.stderr)")
      holders.append(holder)
    }
    let held = holders.compactMap { attackFigure("held", in: $0.stdout).flatMap { Int($0) } }.reduce(0, +)
    #expect(held == 15, "the four users hold \(held) of 16 slots")
    let root = try daemon.orientctl("get")
    #expect(root.status == 0, "root was refused: \(root.stderr)")
    for holder in holders { holder.kill() }
  }

  @Test("Out of descriptors, orientd stops accepting for a while instead of spinning, and serves on")
  func outOfDescriptorsDoesNotSpin() throws {
    let prlimit = try #require(TestPaths.which("prlimit"), "prlimit is missing (util-linux)")
    // 60 connections stay under the per-user limit (64 of the default 256), not under 48 descriptors.
    let daemon = try servedDaemonOpenToOthers(launcher: [prlimit, "--nofile=48:48"])
    let connected = try TestClient(path: daemon.socket)
    _ = connected.readLines(greetingLines)
    let trace = try SystemCallTrace(pid: daemon.process.pid, calls: "accept4")
    let holder = try TestProcess(Unprivileged.attack("hold-connections", [daemon.socket, "60"]))
    try #require(
      daemon.process.waitFor("Too many open files", inStderr: true),
      "orientd never ran out of descriptors: \(daemon.process.stderr)")
    // The loop still serves the clients it has.
    connected.send("ping\n")
    #expect(connected.readLines(through: "pong").last == "pong")
    let refusedAccepts = trace.stop().filter { $0.contains("EMFILE") }.count
    #expect(refusedAccepts >= 1)
    #expect(refusedAccepts <= 10, "\(refusedAccepts) accept calls failed with EMFILE: orientd spins")
    holder.kill()
  }

  @Test("Clients that never send nor read are dropped after --idle-timeout; a listener stays")
  func idleClientsAreDropped() throws {
    let daemon = try servedDaemonOpenToOthers(extra: ["--idle-timeout", "0.5"])
    let listener = try TestClient(path: daemon.socket)
    _ = listener.readLines(greetingLines)
    let idle = try runToCompletion(
      Unprivileged.attack("idle-connections", [daemon.socket, "3", "\(patience)"]))
    #expect(attackFigure("opened", in: idle.stdout) == "3")
    #expect(attackFigure("closed", in: idle.stdout) == "3")
    listener.send("ping\n")
    #expect(listener.readLines(through: "pong").last == "pong")
  }

  @Test("info shows hooks and file paths only to clients that may control")
  func infoHidesPathsFromOthers() throws {
    let daemon = try servedDaemonOpenToOthers(extra: ["--control-group", "root", "--hook", "true"])
    let own = try TestClient(path: daemon.socket)
    own.send("info\n")
    let ownInfo = own.readLines(through: "ok")
    #expect(ownInfo.contains("info hook true"), "root's info: \(ownInfo)")
    #expect(ownInfo.contains { $0.contains(daemon.statePath) })
    let input = try Scratch.current().path("info-command")
    try "info\n".write(toFile: input, atomically: true, encoding: .utf8)
    let socat = try #require(TestPaths.which("socat"), "socat is missing")
    let other = try TestProcess(
      Unprivileged.command([socat, "-t", "\(patience)", "-", "UNIX-CONNECT:\(daemon.socket)"]),
      stdinPath: input)
    try #require(other.waitFor("\nok\n"), "nobody's info did not end: \(other.stdout) \(other.stderr)")
    other.kill()
    #expect(other.stdout.contains("info threshold"))
    #expect(!other.stdout.contains("hook"), "nobody's info: \(other.stdout)")
    #expect(!other.stdout.contains(daemon.statePath))
  }

  @Test("A lock that cannot be saved on a full disk is acknowledged with a warning orientctl prints")
  func fullDiskIsReported() throws {
    try #require(getuid() == 0, "this test mounts a file system in a private namespace")
    let unshare = try #require(TestPaths.which("unshare"), "unshare is missing (util-linux)")
    let full = try Scratch.current().makeDirectory("full")
    // A tiny file system, filled before orientd starts, seen only by orientd.
    let launcher = [
      unshare, "--mount", "--propagation", "private", "/bin/sh", "-c",
      "mount -t tmpfs -o size=16k,mode=0755 tmpfs \"$1\" && { dd if=/dev/zero of=\"$1/fill\" bs=1k count=64 "
        + "2>/dev/null; shift; exec \"$@\"; }", "sh", full,
    ]
    let daemon = try servedDaemonOpenToOthers(statePath: full + "/state", launcher: launcher)
    let locked = try daemon.orientctl("lock", "left-up")
    #expect(locked.status == 0)
    #expect(locked.stderr.contains("warning: not-saved"), "orientctl said: \(locked.stderr)")
    #expect(locked.stderr.contains("No space left on device"))
    #expect(try daemon.orientctl("get").stdout.contains("lock left-up"))
    #expect(daemon.stop() == 0)
  }
}
