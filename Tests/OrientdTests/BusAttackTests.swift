import Foundation
import Testing

/// orientd's `net.hadess.SensorProxy` attacked by a hostile local user (nobody) on a private
/// bus with a system bus policy (Tests/Fixtures/attack-system-bus.conf): only root, orientd's
/// user, may own the name; anyone may call it and send signals. After each attack orientd
/// must still serve its socket and the bus, with its memory bounded.
@Suite("net.hadess.SensorProxy attacked by an unprivileged local user", .scratch)
struct BusAttackTests {
  /// A private system bus that nobody may reach and call.
  private func attackBus() throws -> TestBus {
    try TestBus(
      config: "strict-system-bus.conf",
      including: TestPaths.packageRoot + "/Tests/Fixtures/attack-policy.conf",
      openToOthers: true)
  }

  /// The match rules the bus daemon holds for the connection `name` (its Debug.Stats).
  private func matchRules(of name: String, on bus: TestBus) throws -> Int? {
    try bus.connectionStatistic("MatchRules", of: name)
  }

  /// Waits until the bus holds `count` match rules for orientd's connection.
  private func waitForMatchRules(_ count: Int, of name: String, on bus: TestBus) -> Bool {
    waitUntil { (try? matchRules(of: name, on: bus)) == count }
  }

  /// Checks that orientd still serves both faces: its socket, and a claim and a property on
  /// the bus for a client of another user than the attacker's.
  private func expectServing(
    _ daemon: WatchedDaemon, _ bus: TestBus, sourceLocation: SourceLocation = #_sourceLocation
  )
    throws
  {
    #expect(try daemon.get("sensor") == "online", sourceLocation: sourceLocation)
    let client = try SensorProxyClient(bus: bus)
    #expect(
      client.send("get HasAccelerometer", waitFor: "reply") == "reply Get true", "\(client.process.stderr)",
      sourceLocation: sourceLocation)
    #expect(
      client.send("release Accelerometer", waitFor: "reply") == "reply ReleaseAccelerometer",
      sourceLocation: sourceLocation)
  }

  // MARK: Claims

  @Test(
    "Claims stop at 128 clients with LimitsExceeded; a client that releases or leaves frees its place and its watch"
  )
  func claimCapHoldsAndFrees() throws {
    let bus = try attackBus()
    let daemon = try bus.servingOrientd()
    let orientd = try #require(try bus.owner(of: "net.hadess.SensorProxy"))
    let baseline = try #require(try matchRules(of: orientd, on: bus))
    // One client of nine connections claims and releases everything: nothing stays.
    let releaser = try TestProcess(Unprivileged.attack("bus-claimants", [bus.address, "9", "9"]))
    try #require(releaser.waitFor("holding "), "\(releaser.stderr)")
    #expect(attackFigure("claimed", in: releaser.stdout) == "9")
    #expect(attackFigure("released", in: releaser.stdout) == "9")
    #expect(daemon.waitForClaimants(0), "\((try? daemon.busInfo()) ?? "")")
    #expect(
      waitForMatchRules(baseline, of: orientd, on: bus), "\((try? matchRules(of: orientd, on: bus)) ?? nil)")
    // Fifteen users of nine claims each: 135 asked for, 128 places. Spread over users so that
    // the limit reached is the service's, not one per user. dbus-daemon lets in only users
    // with an account: these are the unprivileged ones every Debian system has (base-passwd).
    let users: [UInt32] = [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 13, 33, 34, 38, 39]
    var holders: [TestProcess] = []
    var claimed = 0
    var refused = 0
    for user in users {
      try #require(getpwuid(user) != nil, "user \(user) has no account")
      let holder = try TestProcess(Unprivileged.attack("bus-claimants", [bus.address, "9"], uid: user))
      try #require(holder.waitFor("holding "), "\(holder.stderr)")
      claimed += Int(attackFigure("claimed", in: holder.stdout) ?? "") ?? 0
      refused += Int(attackFigure("refused", in: holder.stdout) ?? "") ?? 0
      if let refusal = attackFigure("refusal", in: holder.stdout) {
        #expect(refusal == "org.freedesktop.DBus.Error.LimitsExceeded")
      }
      holders.append(holder)
    }
    #expect(claimed == 128)
    #expect(refused == 7)
    #expect(daemon.waitForClaimants(128), "\((try? daemon.busInfo()) ?? "")")
    #expect(waitForMatchRules(baseline + 128, of: orientd, on: bus))
    let latecomer = try SensorProxyClient(bus: bus)
    #expect(
      latecomer.send("claim Accelerometer", waitFor: "error")
        == "error org.freedesktop.DBus.Error.LimitsExceeded")
    // A holder of nine claims leaves: its places and the watches on its connections go.
    holders[0].kill()
    #expect(daemon.waitForClaimants(119), "\((try? daemon.busInfo()) ?? "")")
    #expect(waitForMatchRules(baseline + 119, of: orientd, on: bus))
    #expect(latecomer.claim())
    #expect(daemon.waitForClaimants(120))
    for holder in holders { holder.kill() }
    #expect(daemon.waitForClaimants(1), "\((try? daemon.busInfo()) ?? "")")
    #expect(waitForMatchRules(baseline + 1, of: orientd, on: bus))
    try expectServing(daemon, bus)
    #expect(daemon.stop() == 0)
  }

  @Test("One user cannot take every claim place: a client of another user still claims the accelerometer")
  func oneUserCannotTakeEveryClaim() throws {
    let bus = try attackBus()
    let daemon = try bus.servingOrientd()
    // 200 connections: under dbus-daemon's own limit of 256 per user on the system bus.
    let holder = try TestProcess(Unprivileged.attack("bus-claimants", [bus.address, "200"]))
    try #require(holder.waitFor("holding "), "\(holder.stderr)")
    let desktop = try SensorProxyClient(bus: bus)
    desktop.typed.type("claim Accelerometer")
    #expect(waitUntil { !desktop.lines("reply ").isEmpty || !desktop.lines("error ").isEmpty })
    #expect(
      desktop.lines("reply ") == ["reply ClaimAccelerometer"],
      "\(desktop.lines("error ")); nobody holds \(attackFigure("claimed", in: holder.stdout) ?? "?") claims")
    holder.kill()
    #expect(daemon.stop() == 0)
  }

  @Test(
    "While one user floods claims from many connections, another user's new connections still claim at once")
  func claimFloodDoesNotStarveOtherUsers() throws {
    let bus = try attackBus()
    let daemon = try bus.servingOrientd()
    // 240 connections of nobody keep 8 claims each waiting, whatever the answers, for 10 s.
    let flood = try TestProcess(Unprivileged.attack("bus-claim-flood", [bus.address, "240", "8", "10"]))
    try #require(flood.waitFor("connections 240", timeout: startupPatience), "\(flood.stderr)")
    // Meanwhile another user (the tests') claims from 100 new connections, one after another.
    let other = try runToCompletion([
      TestPaths.testbench, "attack", "bus-claim-churn", bus.address, "100", "wait",
    ])
    #expect(attackFigure("cycles", in: other.stdout) == "100", "\(other)")
    #expect(attackFigure("errors", in: other.stdout) == "0", "another user's claims were refused: \(other)")
    // The premise: the flood ran all along, and nobody's claims past its user's share were
    // refused.
    #expect(flood.waitForExit() == 0, "\(flood.stderr)")
    #expect((attackFigure("calls", in: flood.stdout).flatMap { Int($0) } ?? 0) > 1000, "\(flood.stdout)")
    #expect(attackFigure("refusal", in: flood.stdout) == "org.freedesktop.DBus.Error.LimitsExceeded")
    try expectServing(daemon, bus)
    #expect(daemon.stop() == 0)
  }

  @Test("Claiming and disconnecting over and over leaves no claim, no watch and no memory behind")
  func claimChurnLeavesNothing() throws {
    let bus = try attackBus()
    let daemon = try bus.servingOrientd()
    let orientd = try #require(try bus.owner(of: "net.hadess.SensorProxy"))
    let baseline = try #require(try matchRules(of: orientd, on: bus))
    // A first round brings the allocator and sd-bus to their working sizes.
    let warmUp = try runToCompletion(Unprivileged.attack("bus-claim-churn", [bus.address, "50", "wait"]))
    try #require(warmUp.status == 0, "\(warmUp.stderr)")
    #expect(daemon.waitForClaimants(0))
    let before = try #require(residentKilobytes(of: daemon.run.programPID))
    for mode in ["wait", "drop"] {
      let churn = try runToCompletion(Unprivileged.attack("bus-claim-churn", [bus.address, "400", mode]))
      try #require(churn.status == 0, "\(churn.stderr)")
      #expect(attackFigure("errors", in: churn.stdout) == "0", "\(mode): \(churn.stdout)")
    }
    #expect(daemon.waitForClaimants(0), "\((try? daemon.busInfo()) ?? "")")
    #expect(
      waitForMatchRules(baseline, of: orientd, on: bus), "\((try? matchRules(of: orientd, on: bus)) ?? nil)")
    let after = try #require(residentKilobytes(of: daemon.run.programPID))
    #expect(after - before < 2 * 1024, "orientd grew from \(before) kB to \(after) kB over 800 claimers")
    try expectServing(daemon, bus)
    #expect(daemon.stop() == 0)
  }

  // MARK: Made-up bus daemon signals

  @Test("A client cannot end another client's claim with a made-up NameOwnerChanged")
  func spoofedClientGoneIsIgnored() throws {
    let bus = try attackBus()
    let daemon = try bus.servingOrientd()
    let victim = try SensorProxyClient(bus: bus)
    #expect(victim.claim())
    #expect(daemon.waitForClaimants(1))
    let spoof = try runToCompletion(
      Unprivileged.attack("bus-spoof", [bus.address, "owner", "client-gone", victim.uniqueName]))
    try #require(spoof.status == 0, "\(spoof.stderr)")
    // The signal reached orientd before this call: once it is answered, orientd has handled it.
    #expect(victim.send("get AccelerometerOrientation", waitFor: "reply") == "reply Get normal")
    let info = try daemon.busInfo()
    #expect(info.contains("; 1 client claims"), "\(info)")
    // Still claimed: the victim still hears of turns.
    try daemon.run.setRaw(256, 0, 0)
    #expect(daemon.waitFor("device", "left-up"))
    #expect(
      waitUntil { victim.changes.contains { $0.contains("AccelerometerOrientation=left-up") } },
      "\(victim.changes)")
    #expect(daemon.stop() == 0)
  }

  @Test("A client cannot push orientd off the bus with a made-up NameLost, nor take its name")
  func spoofedNameLostIsIgnored() throws {
    let bus = try attackBus()
    let daemon = try bus.servingOrientd()
    let owner = try #require(try bus.owner(of: "net.hadess.SensorProxy"))
    let client = try SensorProxyClient(bus: bus)
    #expect(client.claim())
    let spoof = try runToCompletion(Unprivileged.attack("bus-spoof", [bus.address, "owner", "name-lost"]))
    try #require(spoof.status == 0, "\(spoof.stderr)")
    #expect(attackFigure("target", in: spoof.stdout) == owner)
    // Answered after the signal was handled; a second call would find no owner if the first
    // had been the last of this connection.
    #expect(client.send("get HasAccelerometer", waitFor: "reply") == "reply Get true")
    #expect(client.send("get HasAccelerometer", waitFor: "reply") == "reply Get true")
    #expect(try bus.owner(of: "net.hadess.SensorProxy") == owner)
    #expect(!daemon.run.process.stderr.contains("lost the name"), "\(daemon.run.process.stderr)")
    #expect(try daemon.busInfo().contains("; 1 client claims"))
    // Nor can nobody own the name, by asking, queueing or replacing.
    let take = try runToCompletion(Unprivileged.attack("bus-take-name", [bus.address]))
    try #require(take.status == 0, "\(take.stderr)")
    for flags in [0, 2, 4, 6] {
      #expect(attackFigure("request-\(flags)", in: take.stdout) == "org.freedesktop.DBus.Error.AccessDenied")
    }
    #expect(attackFigure("owner", in: take.stdout) == owner)
    #expect(daemon.stop() == 0)
  }

  @Test("A queued orientd does not take a made-up NameAcquired for the name")
  func spoofedNameAcquiredIsIgnored() throws {
    let bus = try attackBus()
    let first = try bus.servingOrientd()
    let owner = try #require(try bus.owner(of: "net.hadess.SensorProxy"))
    let second = try WatchedDaemon(
      [.accelerometer()], extra: ["--dbus", "system"],
      prepare: "export DBUS_SYSTEM_BUS_ADDRESS=\(bus.address)")
    #expect(
      second.run.process.waitFor("waiting for it in the bus's queue", inStderr: true),
      "\(second.run.process.stderr)")
    // The queued orientd's unique name: the connection of its process that is not the owner.
    let names = try bus.busctl(["list", "--no-pager", "--no-legend", "--unique"])
    let candidates = names.stdout.split(separator: "\n").compactMap { line -> String? in
      let words = line.split(separator: " ", omittingEmptySubsequences: true)
      guard words.count > 1, words[0].hasPrefix(":"), words[1] == "\(second.run.programPID)" else {
        return nil
      }
      return String(words[0])
    }
    let target = try #require(candidates.first, "\(names.stdout)")
    #expect(target != owner)
    let spoof = try runToCompletion(Unprivileged.attack("bus-spoof", [bus.address, target, "name-acquired"]))
    try #require(spoof.status == 0, "\(spoof.stderr)")
    // A call to the queued orientd itself is answered after it handled the signal.
    let ping = try bus.busctl([
      "call", target, "/net/hadess/SensorProxy", "org.freedesktop.DBus.Peer", "Ping",
    ])
    #expect(ping.status == 0, "\(ping.stderr)")
    let info = try second.busInfo()
    #expect(info.hasPrefix("info dbus waiting for"), "\(info)")
    #expect(!second.run.process.stderr.contains("D-Bus: serving"), "\(second.run.process.stderr)")
    #expect(second.stop() == 0)
    #expect(first.stop() == 0)
  }

  // MARK: Messages

  @Test(
    "Calls of 32 MiB are refused, their memory goes back, and a wrong property name is not echoed many times over"
  )
  func hugeCallsAreFreed() throws {
    let bus = try attackBus()
    let daemon = try bus.servingOrientd()
    let pid = daemon.run.programPID
    // dbus-daemon's default largest message on the system bus is 32 MiB, header included.
    let bytes = 32 * 1024 * 1024 - 4096
    func call(_ shape: String, _ outcome: String) throws {
      let calls = try runToCompletion(
        Unprivileged.attack("bus-big-calls", [bus.address, "\(bytes)", "3", shape]))
      try #require(calls.status == 0, "\(calls.stderr)")
      #expect(attackFigure("outcome", in: calls.stdout) == "\(outcome) 3", "\(shape): \(calls.stdout)")
    }
    let before = try #require(residentKilobytes(of: pid))
    resetPeakResident(of: pid)
    try call("claim", "org.freedesktop.DBus.Error.InvalidArgs")
    try call("introspect", "org.freedesktop.DBus.Error.InvalidArgs")
    let claimPeak = try #require(peakResidentKilobytes(of: pid))
    let after = try #require(residentKilobytes(of: pid))
    #expect(after - before < 8 * 1024, "orientd kept \(after) kB after the calls, from \(before) kB")
    // orientd reads one message at a time, and what it answers is small: more than twice and
    // a half the message at once is an echo of it.
    resetPeakResident(of: pid)
    try call("get", "org.freedesktop.DBus.Error.InvalidArgs")
    let getPeak = try #require(peakResidentKilobytes(of: pid))
    #expect(
      getPeak - after < 80 * 1024, "Get peaked at \(getPeak) kB from \(after) kB; claims at \(claimPeak) kB")
    try expectServing(daemon, bus)
    #expect(daemon.stop() == 0)
  }

  @Test(
    "Signals of 32 MiB that a bus lets through are read one at a time, dropped and their memory given back")
  func hugeSignalsAreDropped() throws {
    // This bus lets anyone send orientd signals (the shipped policy refuses them: BusPolicyTests).
    let bus = try attackBus()
    let daemon = try bus.servingOrientd()
    let pid = daemon.run.programPID
    let before = try #require(residentKilobytes(of: pid))
    resetPeakResident(of: pid)
    let flood = try runToCompletion(
      Unprivileged.attack("bus-big-signals", [bus.address, "\(32 * 1024 * 1024 - 4096)", "6"]))
    try #require(flood.status == 0, "\(flood.stderr)")
    #expect(attackFigure("sent", in: flood.stdout) == "6")
    // A call answered after them: orientd has read every signal (in order) by then. Made to look
    // like the bus daemon's, they changed nothing.
    try expectServing(daemon, bus)
    // One message read at a time: its 32 MiB, and no second copy of it.
    let peak = try #require(peakResidentKilobytes(of: pid))
    #expect(peak - before < 80 * 1024, "the signals peaked at \(peak) kB from \(before) kB")
    let after = try #require(residentKilobytes(of: pid))
    #expect(after - before < 8 * 1024, "orientd kept \(after) kB after the signals, from \(before) kB")
    #expect(try bus.owner(of: "net.hadess.SensorProxy") != nil)
    #expect(daemon.stop() == 0)
  }

  @Test("Calls on object paths of 64 KB cost orientd little work")
  func longPathsAreCheap() throws {
    let bus = try attackBus()
    let daemon = try bus.servingOrientd()
    let pid = daemon.run.programPID
    let before = try #require(processorSeconds(of: pid))
    let calls = try runToCompletion(Unprivileged.attack("bus-long-paths", [bus.address, "4"]))
    try #require(calls.status == 0, "\(calls.stderr)")
    #expect(attackFigure("outcome", in: calls.stdout) == "org.freedesktop.DBus.Error.UnknownObject")
    let spent = try #require(processorSeconds(of: pid)) - before
    // A processor time, not a delay: a lookup that walks every prefix of the path costs
    // seconds per call; one that looks at the path once costs nothing measurable.
    #expect(spent < 1, "orientd spent \(spent) s of processor time on 4 calls")
    try expectServing(daemon, bus)
    #expect(daemon.stop() == 0)
  }

  @Test("Calls on other objects, interfaces and members get D-Bus errors and claim nothing")
  func oddCallsGetErrors() throws {
    let bus = try attackBus()
    let daemon = try bus.servingOrientd()
    let calls = try runToCompletion(Unprivileged.attack("bus-odd-calls", [bus.address]))
    try #require(calls.status == 0, "\(calls.stderr)")
    let expected = [
      "set": "org.freedesktop.DBus.Error.PropertyReadOnly",
      "set-unknown": "org.freedesktop.DBus.Error.UnknownProperty",
      "getall-unknown-interface": "org.freedesktop.DBus.Error.UnknownInterface",
      "getall-compass-on-main": "org.freedesktop.DBus.Error.UnknownInterface",
      "get-compass-on-main": "org.freedesktop.DBus.Error.UnknownProperty",
      "claim-compass-on-main": "org.freedesktop.DBus.Error.UnknownMethod",
      "claim-on-compass": "org.freedesktop.DBus.Error.UnknownMethod",
      "claim-elsewhere": "org.freedesktop.DBus.Error.UnknownObject",
      "unknown-interface": "org.freedesktop.DBus.Error.UnknownMethod",
      "introspect-root": "ok",
      "introspect-below": "org.freedesktop.DBus.Error.UnknownObject",
      "introspect-beside": "org.freedesktop.DBus.Error.UnknownObject",
      "object-manager": "org.freedesktop.DBus.Error.UnknownMethod",
      "ping": "ok",
      "machine-id": "ok",
    ]
    for (label, outcome) in expected {
      #expect(attackFigure(label, in: calls.stdout) == outcome, "\(label)")
    }
    // Without an interface the call may or may not reach the method; either way nothing stays.
    #expect(attackFigure("claim-no-interface", in: calls.stdout) != nil)
    #expect(daemon.waitForClaimants(0), "\((try? daemon.busInfo()) ?? "")")
    #expect(try daemon.get("orientation") == "normal")
    try expectServing(daemon, bus)
    #expect(daemon.stop() == 0)
  }

  @Test("Clients that subscribe and never read cost orientd nothing while it signals hundreds of changes")
  func deafListenersCostNothing() throws {
    let bus = try attackBus()
    let daemon = try bus.servingOrientd()
    let pid = daemon.run.programPID
    // As many as one user may hold claims with.
    let listeners = try TestProcess(Unprivileged.attack("bus-deaf-listeners", [bus.address, "16"]))
    try #require(listeners.waitFor("listening "), "\(listeners.stderr)")
    #expect(daemon.waitForClaimants(16))
    let reader = try SensorProxyClient(bus: bus)
    #expect(reader.claim())
    let before = try #require(residentKilobytes(of: pid))
    // Each turn is one PropertiesChanged to every listener.
    let turns = 400
    for turn in 0..<turns {
      let (x, name) = turn % 2 == 0 ? (256, "left-up") : (-256, "right-up")
      try daemon.run.setRaw(x, 0, 0)
      try #require(daemon.waitFor("device", name), "turn \(turn)")
    }
    // A reader that reads hears every turn, the last one too: nothing held orientd's signals up.
    #expect(
      waitUntil {
        reader.changes.count >= turns && reader.changes.last == "changed AccelerometerOrientation=right-up"
      },
      "\(reader.changes.count) changes heard, the last: \(reader.changes.suffix(2))")
    let after = try #require(residentKilobytes(of: pid))
    #expect(after - before < 2 * 1024, "orientd grew from \(before) kB to \(after) kB")
    listeners.kill()
    #expect(daemon.waitForClaimants(1), "\((try? daemon.busInfo()) ?? "")")
    try expectServing(daemon, bus)
    #expect(daemon.stop() == 0)
  }
}

/// Starts a new peak of a process's resident memory (VmHWM) from its size now.
private func resetPeakResident(of pid: pid_t) {
  // Writing 5 to clear_refs resets the peak resident set size (proc(5)).
  try? "5".write(toFile: "/proc/\(pid)/clear_refs", atomically: false, encoding: .utf8)
}

/// A process's peak resident memory (VmHWM) in kB.
private func peakResidentKilobytes(of pid: pid_t) -> Int? {
  guard let status = try? String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8) else { return nil }
  for line in status.split(separator: "\n") where line.hasPrefix("VmHWM:") {
    return Int(line.split(separator: " ", omittingEmptySubsequences: true)[1])
  }
  return nil
}

/// The processor time (user and system) a process has used, in seconds.
private func processorSeconds(of pid: pid_t) -> Double? {
  guard let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
    let end = stat.lastIndex(of: ")")
  else { return nil }
  // After the command's closing parenthesis: state is field 3, utime 14 and stime 15.
  let fields = stat[stat.index(after: end)...].split(separator: " ")
  guard fields.count > 12, let user = Double(fields[11]), let system = Double(fields[12]) else { return nil }
  return (user + system) / Double(sysconf(Int32(_SC_CLK_TCK)))
}
