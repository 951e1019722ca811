import OrientCore
import OrientSystem
import Testing

@testable import OrientDaemon

@Suite("The socket server, served in the test process")
struct SocketServerTests {
  @Test("A client is greeted with the whole state, then hears each published change")
  func greetingThenChanges() throws {
    let served = try ServedSocket()
    let peer = try served.connect()
    #expect(served.lines(6, of: peer) == normalGreeting)
    peer.forget()
    served.host.deviceTurns(to: .leftUp)
    #expect(served.lines(2, of: peer) == ["device left-up", "orientation left-up"])
  }

  @Test("A control command's changes reach every subscriber, the commander's before its ok")
  func controlIsPublishedToAll() throws {
    let served = try ServedSocket()
    let commander = try served.connect()
    let watcher = try served.connect()
    _ = served.lines(6, of: commander)
    _ = served.lines(6, of: watcher)
    commander.forget()
    watcher.forget()
    commander.send("rotate cw\n")
    #expect(served.lines(3, of: commander) == ["lock left-up", "orientation left-up", "ok"])
    #expect(served.lines(2, of: watcher) == ["lock left-up", "orientation left-up"])
    #expect(served.host.controls == [.rotate(.clockwise)])
  }

  @Test("A peer that may not control is refused with permission-denied; it may still read")
  func controlRefused() throws {
    let served = try ServedSocket(control: RefusingGate())
    let peer = try served.connect()
    _ = served.lines(6, of: peer)
    peer.forget()
    peer.send("lock\nunlock\nget\n")
    let denied = "error permission-denied test gate: nobody may control"
    #expect(served.lines(9, of: peer) == [denied, denied] + normalGreeting + ["ok"])
    #expect(served.host.controls.isEmpty, "the daemon must not be asked")
  }

  @Test("info shows hooks and paths only to a peer that may control")
  func infoFollowsPermission() throws {
    let open = try ServedSocket()
    let controller = try open.connect()
    _ = open.lines(6, of: controller)
    controller.forget()
    controller.send("info\n")
    #expect(open.lines(3, of: controller) == ["info version test", "info hook echo secret", "ok"])

    let closed = try ServedSocket(control: RefusingGate())
    let reader = try closed.connect()
    _ = closed.lines(6, of: reader)
    reader.forget()
    reader.send("info\n")
    #expect(closed.lines(2, of: reader) == ["info version test", "ok"])
    #expect(closed.host.infoRequests == [false])
  }

  @Test("get answers the whole state then ok; ping answers pong; JSON changes the format")
  func getPingAndJSON() throws {
    let served = try ServedSocket()
    let peer = try served.connect()
    _ = served.lines(6, of: peer)
    peer.forget()
    peer.send("get\nping\nformat json\nping\n")
    #expect(
      served.lines(10, of: peer)
        == normalGreeting + ["ok", "pong", #"{"reply":"ok"}"#, #"{"reply":"pong"}"#])
  }

  @Test(
    "An unknown command gets unknown-command; a line past the limit gets line-too-long and ends the client")
  func malformedLines() throws {
    let served = try ServedSocket()
    let peer = try served.connect()
    _ = served.lines(6, of: peer)
    peer.forget()
    peer.send("bogus\n")
    #expect(served.lines(1, of: peer).first?.hasPrefix("error unknown-command") == true)
    peer.forget()
    peer.send(String(repeating: "x", count: ClientConnection.lineLimit + 1) + "\n")
    #expect(served.turn(until: { peer.closedByServer }), "the server must close the client")
    #expect(peer.lines == ["error line-too-long lines are at most 1024 bytes"])
    #expect(served.turn(until: { served.server.clientCount == 0 }))
  }

  @Test(
    "Garbage, NUL bytes, invalid UTF-8 and bad arguments get errors; an overlong line closes; others are unaffected"
  )
  func garbageInput() throws {
    let served = try ServedSocket()
    let bystander = try served.connect()
    let client = try served.connect()
    _ = served.lines(6, of: bystander)
    _ = served.lines(6, of: client)
    bystander.forget()
    client.forget()

    client.send(bytes: [0x01, 0x02, 0xFF, 0x0A])
    client.send(bytes: Array("get".utf8) + [0x00] + Array("x\n".utf8))
    client.send("\u{1b}[31mred\n")
    client.send("lock sideways\n")
    client.send("\n\r\n")
    client.send("ping\n")
    let replies = served.lines(5, of: client)
    #expect(replies.count == 5, "empty lines get no reply: \(replies)")
    #expect(replies.first == "error bad-encoding lines must be UTF-8 text without NUL bytes")
    #expect(replies.dropFirst().first?.hasPrefix("error bad-encoding") == true)
    #expect(replies.dropFirst(2).first == "error unknown-command '?[31mred' (try help)")
    #expect(
      replies.dropFirst(3).first?.hasPrefix("error bad-argument unknown screen orientation 'sideways'")
        == true)
    #expect(replies.last == "pong")

    client.forget()
    client.send(String(repeating: "x", count: 5000))
    #expect(served.turn(until: { client.closedByServer }), "an overlong line closes the client")
    #expect(client.lines == ["error line-too-long lines are at most 1024 bytes"])

    // A whole command without its newline, then the end of input: it must not run.
    let halfLine = try served.connect()
    _ = served.lines(6, of: halfLine)
    halfLine.send("lock left-up")
    halfLine.shutDownSending()
    #expect(served.turn(until: { halfLine.unreadByServer == 0 }), "the server never read the half line")
    // The end of input waits behind those bytes and is served in the same round, or before
    // the bystander's ping, sent only now.
    bystander.send("ping\n")
    #expect(served.lines(1, of: bystander) == ["pong"], "the bystander heard nothing else")
    #expect(served.host.controls.isEmpty, "the half line must not have run")
    #expect(served.host.tracker.policy.lock == nil)
  }

  @Test("help lists the commands, then ok; quit closes the connection")
  func helpAndQuit() throws {
    let served = try ServedSocket()
    let client = try served.connect()
    _ = served.lines(6, of: client)
    client.forget()
    client.send("help\n")
    #expect(served.turn(until: { client.lines.last == "ok" }))
    let help = client.lines
    // Each line starts with the command's name, then its arguments or a colon.
    let names = help.dropLast().map { $0.prefix { $0 != " " && $0 != ":" } }
    for command in [
      "get", "lock", "unlock", "rotate", "allow", "format", "ping", "help", "quit", "samples", "info",
      "supports",
    ] {
      #expect(names.contains(Substring(command)), "help must list \(command): \(help)")
    }
    client.send("quit\n")
    #expect(served.turn(until: { client.closedByServer }))
    #expect(served.turn(until: { served.server.clientCount == 0 }))
  }

  @Test("A commander's ok waits until its change is saved, and it is not served meanwhile")
  func okWaitsForTheCommit() throws {
    let served = try ServedSocket()
    served.host.savesToFile = true
    let peer = try served.connect()
    _ = served.lines(6, of: peer)
    peer.forget()
    peer.send("lock\nping\n")
    #expect(served.lines(1, of: peer) == ["lock normal"])
    #expect(served.host.commitRequests == [0], "saved for root, the test's user")
    // The round that would serve `ping` has come and gone: the client waits for its commit.
    served.host.deviceTurns(to: .faceUp)
    #expect(served.lines(2, of: peer) == ["lock normal", "device face-up"])
    served.server.committed(through: 1)
    #expect(served.lines(4, of: peer) == ["lock normal", "device face-up", "ok", "pong"])

    peer.forget()
    peer.send("unlock\n")
    #expect(served.lines(1, of: peer) == ["lock off"])
    served.server.committed(through: 2, failure: "disk full")
    #expect(served.lines(2, of: peer) == ["lock off", "ok not-saved disk full"])
  }

  @Test("While the state is stale a newcomer waits for its greeting, and gets it once it is fresh")
  func greetingWaitsForFreshState() throws {
    let served = try ServedSocket()
    served.server.holdsStaleState = true
    let peer = try served.connect()
    #expect(served.server.awaitsFreshState)
    #expect(served.host.needsChangedCalls > 0, "the daemon must hear that a client waits")
    peer.send("ping\n")
    served.server.holdsStaleState = false
    served.server.stateIsFresh()
    #expect(served.lines(7, of: peer) == normalGreeting + ["pong"])
    #expect(!served.server.awaitsFreshState)
  }

  @Test("A client that sends nothing and reads nothing is dropped after the idle timeout, not before")
  func idleClientIsDropped() throws {
    var limits = SocketServer.Limits(maxClients: 16, maxClientsPerUser: 8)
    limits.idleTimeout = .seconds(30)
    let served = try ServedSocket(limits: limits)
    let idle = try served.connect(listening: false)
    let reader = try served.connect()
    _ = served.lines(6, of: reader)
    // The sweep runs every 10 s of the scripted clock: at 10 and 20 s both are kept.
    for _ in 0..<2 {
      served.clock.advance(by: .seconds(10))
      reader.forget()
      reader.send("ping\n")
      #expect(served.lines(1, of: reader) == ["pong"])
      #expect(served.server.clientCount == 2)
    }
    served.clock.advance(by: .seconds(10))
    #expect(served.turn(until: { served.server.clientCount == 1 }), "the idle client must be dropped")
    idle.readAvailable()
    #expect(idle.lines == normalGreeting, "it was greeted, and never read it")
    #expect(
      served.turn(until: {
        idle.readAvailable(); return idle.closedByServer
      }))
  }

  @Test(
    "A subscriber that stops reading gets the current state instead of its backlog; others hear every change")
  func slowSubscriberIsCollapsed() throws {
    let served = try ServedSocket()
    let slow = try served.connect(listening: false)
    let fast = try served.connect()
    _ = served.lines(6, of: fast)
    fast.forget()
    // Far more than the socket's buffer and the output limit together.
    let turns = 20_000
    for index in 0..<turns {
      served.host.deviceTurns(to: index % 2 == 0 ? .faceUp : .faceDown)
      // The fast subscriber is served between batches, as a loop round would.
      if index % 64 == 0 { try served.loop.runRound(waitingAtMost: .zero) }
    }
    #expect(served.lines(turns, of: fast).count == turns, "the fast subscriber hears every change")
    #expect(served.server.clientCount == 2, "a subscriber with no reply waiting is kept")

    // The slow one reads at last: a prefix of the changes, then the state as it is now.
    served.host.deviceTurns(to: .leftUp)
    _ = served.turn(until: {
      slow.readAvailable()
      return slow.lines.suffix(2) == ["device left-up", "orientation left-up"]
    })
    let lines = slow.lines
    #expect(lines.count < turns / 2, "its backlog must have been dropped: \(lines.count) lines")
    // Its greeting, then the state it was told in place of a backlog.
    #expect(lines.filter { $0 == "sensor online" }.count >= 2)
    #expect(lines.prefix(6) == ArraySlice(normalGreeting))
  }

  @Test(
    "A client that stops reading its replies is dropped once its output passes the limit; others hear every change"
  )
  func stalledRepliesAreDropped() throws {
    let served = try ServedSocket()
    let stalled = try served.connect(listening: false)
    let fast = try served.connect()
    _ = served.lines(6, of: fast)
    fast.forget()
    // Far more help than the socket's buffer holds: the rest waits, replies among it, until
    // the server stops serving the client for its output piling up.
    stalled.send(String(repeating: "help\n", count: 400))
    #expect(served.turn(until: { stalled.unreadByServer == 0 }), "the server never read the commands")
    let turns = 4_000
    for index in 0..<turns {
      served.host.deviceTurns(to: index % 2 == 0 ? .faceUp : .faceDown)
      if index % 64 == 0 { try served.loop.runRound(waitingAtMost: .zero) }
    }
    #expect(served.turn(until: { served.server.clientCount == 1 }), "the stalled client must be dropped")
    #expect(served.lines(turns, of: fast).count == turns, "the fast subscriber hears every change")
    // What it was sent before it was dropped is still there to read, then the end.
    #expect(
      served.turn(until: {
        stalled.readAvailable()
        return stalled.closedByServer
      }))
    #expect(stalled.lines.prefix(6) == ArraySlice(normalGreeting))
  }

  @Test(
    "A get of a reading not current yet has the daemon read it, and is answered after the reading wait")
  func getWaitsForAReading() throws {
    let served = try ServedSocket()
    _ = served.host.readings.setPresent(.light, true)
    let peer = try served.connect()
    _ = served.lines(6, of: peer)
    peer.forget()
    peer.send("get light\n")
    #expect(served.turn(until: { served.server.awaitsFreshState || !served.server.wantedReadings.isEmpty }))
    #expect(served.server.wantedReadings == [.light], "the daemon is asked to read the light sensor")
    // Just short of the wait, the timer is not due: nothing is answered.
    served.clock.advance(by: SocketServer.readingWait - .milliseconds(1))
    for _ in 0..<3 { try served.loop.runRound(waitingAtMost: .zero) }
    #expect(peer.lineCount == 0)
    served.clock.advance(by: .milliseconds(1))
    let unknown = ProtocolRendering.line(for: .light(.unknown), format: .text).dropLast()
    #expect(served.lines(2, of: peer) == [String(unknown), "ok"])
    #expect(served.server.wantedReadings.isEmpty)
  }

  @Test("Past the most clients a newcomer gets too-many-clients and is closed; the others are served")
  func tooManyClients() throws {
    let served = try ServedSocket(limits: SocketServer.Limits(maxClients: 2, maxClientsPerUser: 2))
    let first = try served.connect()
    let second = try served.connect()
    _ = served.lines(6, of: first)
    _ = served.lines(6, of: second)
    let third = try TestPeer(connectingTo: served.path)
    try third.listen(on: served.loop)
    #expect(served.turn(until: { third.closedByServer }), "the newcomer must be closed")
    #expect(third.lines == ["error too-many-clients at most 2 clients are served at once (--max-clients)"])
    #expect(served.server.clientCount == 2)
    first.forget()
    first.send("ping\n")
    #expect(served.lines(1, of: first) == ["pong"])
    // A slot given back is taken by the next newcomer.
    second.send("quit\n")
    #expect(served.turn(until: { served.server.clientCount == 1 }))
    let fourth = try served.connect()
    #expect(served.lines(6, of: fourth) == normalGreeting)
  }

  @Test("Samples reach only the clients that asked for them, and the daemon hears the first and the last")
  func samplesGoToTheirStreams() throws {
    let served = try ServedSocket()
    let streamer = try served.connect()
    let other = try served.connect()
    _ = served.lines(6, of: streamer)
    _ = served.lines(6, of: other)
    streamer.forget()
    other.forget()
    #expect(!served.server.wantsSamples)
    let before = served.host.needsChangedCalls
    streamer.send("samples raw\n")
    #expect(served.lines(1, of: streamer) == ["ok"])
    #expect(served.server.wantsSamples)
    #expect(served.host.needsChangedCalls > before, "the daemon must start forwarding samples")
    streamer.forget()

    let sample = Sample(
      time: SampleTime(microseconds: 1_250_000), raw: Vector3(0, -1, 0),
      gravity: Vector3(0, -1, 0))
    served.server.sendToSubscribers(sample)
    #expect(served.lines(1, of: streamer) == ["raw 1.250 0.0000 -1.0000 0.0000"])
    other.send("ping\n")
    #expect(served.lines(1, of: other) == ["pong"], "no sample for a client that did not ask")

    let stopping = served.host.needsChangedCalls
    streamer.send("samples off\n")
    #expect(served.lines(2, of: streamer).last == "ok")
    #expect(!served.server.wantsSamples)
    #expect(served.host.needsChangedCalls > stopping, "the daemon must stop forwarding samples")
  }
}
