import Foundation
import OrientCore
import OrientSystem
import Testing

@testable import OrientDaemon

/// The greeting of a daemon whose sampler has reported nothing yet, at the default policy.
private let offlineGreeting = [
  "sensor offline", "device undefined", "orientation undefined", "lock off",
  "allowed normal,left-up,bottom-up,right-up", "mode unknown",
]

private let allFour = "normal,left-up,bottom-up,right-up"

/// A state file's text, as `PersistedState` writes it.
private func stateText(lock: String = "off", allowed: String = allFour, chosen: Bool, mode: String? = nil)
  -> String
{
  "# orientd-state 1\nlock \(lock)\nallowed \(allowed)\nallowed-chosen \(chosen ? "yes" : "no")\n"
    + "config-allowed none\n" + (mode.map { "mode \($0)\n" } ?? "")
}

private let zero = SampleTime(microseconds: 0)

extension InProcessDaemon {
  /// The sensor comes online and reports the device standing `normal`.
  func sensorStandsNormal() {
    report(.sensor(online: true, time: zero), .detected(.device(.normal, time: zero)))
  }
}

@Suite("The daemon's wiring, in the test process with a scripted sampler")
struct DaemonTests {
  @Test("A sensor coming online and the device turning reach a socket client as lines, after its greeting")
  func sensorEventsReachClients() throws {
    let running = try InProcessDaemon()
    let client = try running.connect()
    #expect(client.lines == offlineGreeting)
    running.report(.sensor(online: true, time: zero))
    #expect(running.next(1, of: client) == ["sensor online"])
    running.report(.detected(.device(.normal, time: zero)))
    #expect(running.next(2, of: client) == ["device normal", "orientation normal"])
    running.report(.detected(.device(.leftUp, time: SampleTime(microseconds: 10_000))))
    #expect(running.next(2, of: client) == ["device left-up", "orientation left-up"])
    running.report(.detected(.device(.faceUp, time: SampleTime(microseconds: 20_000))))
    #expect(running.next(1, of: client) == ["device face-up"])
    // A newcomer is greeted with the state as it is now.
    let newcomer = try running.connect()
    #expect(
      newcomer.lines == [
        "sensor online", "device face-up", "orientation left-up", "lock off", "allowed \(allFour)",
        "mode unknown",
      ])
  }

  @Test(
    "A lock from one client holds another's screen while device changes still reach it, and the state file keeps the lock until unlock"
  )
  func lockHoldsTheScreenForEveryone() throws {
    let running = try InProcessDaemon()
    running.sensorStandsNormal()
    let commander = try running.connect()
    let listener = try running.connect()
    commander.send("lock\n")
    #expect(running.next(2, of: commander) == ["lock normal", "ok"])
    #expect(running.next(1, of: listener) == ["lock normal"])
    #expect(running.stateFile == stateText(lock: "normal", chosen: false))
    running.report(.detected(.device(.leftUp, time: zero)))
    #expect(running.next(1, of: listener) == ["device left-up"])
    commander.send("get\n")
    #expect(
      running.next(8, of: commander) == [
        "device left-up",
        "sensor online", "device left-up", "orientation normal", "lock normal", "allowed \(allFour)",
        "mode unknown", "ok",
      ])
    commander.send("unlock\n")
    #expect(running.next(2, of: listener) == ["lock off", "orientation left-up"])
    #expect(running.next(3, of: commander) == ["lock off", "orientation left-up", "ok"])
    #expect(running.stateFile == stateText(chosen: false))
  }

  @Test("A change is published to every client, the commander included, before the command's reply")
  func changeBeforeReply() throws {
    let running = try InProcessDaemon()
    running.sensorStandsNormal()
    let commander = try running.connect()
    commander.send("allow normal,right-up\nlock right-up\nping\nlock\n")
    // The last `lock` finds the screen already locked: it changes nothing and only replies.
    #expect(
      running.next(7, of: commander) == [
        "allowed normal,right-up", "ok", "lock right-up", "orientation right-up", "ok", "pong", "ok",
      ])
    commander.send("get\nunlock\n")
    #expect(
      running.next(10, of: commander) == [
        "sensor online", "device normal", "orientation right-up", "lock right-up", "allowed normal,right-up",
        "mode unknown", "ok",
        "lock off", "orientation normal", "ok",
      ])
  }

  @Test("In JSON format events, replies and errors are objects, and allowed is an array")
  func json() throws {
    let running = try InProcessDaemon()
    running.sensorStandsNormal()
    let client = try running.connect()
    client.send("format json\nrotate cw\nping\nrotate\nbogus\n")
    #expect(
      running.next(6, of: client) == [
        #"{"reply":"ok"}"#,
        #"{"event":"lock","value":"left-up"}"#,
        #"{"event":"orientation","value":"left-up"}"#,
        #"{"reply":"ok"}"#,
        #"{"reply":"pong"}"#,
        #"{"reply":"error","code":"bad-argument","message":"usage: rotate cw|ccw"}"#,
      ])
    #expect(
      running.next(1, of: client).first?.hasPrefix(#"{"reply":"error","code":"unknown-command""#) == true)
    client.send("allow normal, left-up\nformat text\nget\n")
    #expect(
      running.next(3, of: client) == [
        #"{"event":"allowed","value":["normal","left-up"]}"#, #"{"reply":"ok"}"#, "ok",
      ])
    #expect(running.next(7, of: client).contains("allowed normal,left-up"))
  }

  @Test("rotate locks to the allowed neighbour, and a restart greets with the lock and the allowed set saved")
  func rotationAndAllowedSetSurviveARestart() throws {
    let scratch = try ScratchDirectory()
    var running = try InProcessDaemon(scratch: scratch)
    running.sensorStandsNormal()
    let commander = try running.connect()
    commander.send("allow normal,left-up\n")
    #expect(running.next(2, of: commander) == ["allowed normal,left-up", "ok"])
    // Counter-clockwise from normal, right-up and bottom-up are not allowed: left-up is next.
    commander.send("rotate ccw\n")
    #expect(running.next(3, of: commander) == ["lock left-up", "orientation left-up", "ok"])
    #expect(running.stateFile == stateText(lock: "left-up", allowed: "normal,left-up", chosen: true))
    running.stop()
    commander.readAvailable()
    #expect(commander.closedByServer)

    running = try InProcessDaemon(scratch: scratch)
    let client = try running.connect()
    #expect(
      client.lines == [
        "sensor offline", "device undefined", "orientation left-up", "lock left-up", "allowed normal,left-up",
        "mode unknown",
      ])
  }

  @Test("The lock and allowed set survive a restart")
  func lockAndAllowedSetSurviveARestart() throws {
    let scratch = try ScratchDirectory()
    var running = try InProcessDaemon(scratch: scratch)
    running.sensorStandsNormal()
    let commander = try running.connect()
    commander.send("allow normal,left-up,right-up\nlock right-up\n")
    #expect(
      running.next(5, of: commander) == [
        "allowed normal,left-up,right-up", "ok", "lock right-up", "orientation right-up", "ok",
      ])
    running.stop()
    // No config file had an allowed = (the record lets a later edit of one win).
    #expect(
      running.stateFile == stateText(lock: "right-up", allowed: "normal,left-up,right-up", chosen: true))

    running = try InProcessDaemon(scratch: scratch)
    running.sensorStandsNormal()
    #expect(
      try running.connect().lines == [
        "sensor online", "device normal", "orientation right-up", "lock right-up",
        "allowed normal,left-up,right-up", "mode unknown",
      ])
  }

  @Test("The mode set by a client survives a restart, and mode auto forgets it")
  func modeSurvivesARestart() throws {
    let scratch = try ScratchDirectory()
    var running = try InProcessDaemon(["--rotate", "tablet"], scratch: scratch)
    running.sensorStandsNormal()
    let commander = try running.connect()
    commander.send("mode laptop\n")
    #expect(running.next(2, of: commander) == ["mode laptop", "ok"])
    #expect(running.stateFile == stateText(chosen: false, mode: "laptop"))
    running.stop()

    running = try InProcessDaemon(["--rotate", "tablet"], scratch: scratch)
    running.report(.sensor(online: true, time: zero), .detected(.device(.leftUp, time: zero)))
    let client = try running.connect()
    #expect(
      client.lines == [
        "sensor online", "device left-up", "orientation normal", "lock off", "allowed \(allFour)",
        "mode laptop",
      ])
    client.send("mode auto\n")
    #expect(running.next(3, of: client) == ["mode unknown", "orientation left-up", "ok"])
    #expect(running.stateFile == stateText(chosen: false))
  }

  @Test("The hinge's angle and the mode it gives reach the clients, and laptop mode holds the screen normal")
  func hingeGivesTheMode() throws {
    let running = try InProcessDaemon()
    running.sensorStandsNormal()
    running.report(.detected(.device(.leftUp, time: zero)))
    let client = try running.connect()
    #expect(client.lines[2] == "orientation left-up")
    running.report(.hinge(HingeStatus(available: true, mode: .laptop, angle: 100)))
    #expect(running.next(3, of: client) == ["hinge 100", "mode laptop", "orientation normal"])
    running.report(.hinge(HingeStatus(available: true, mode: .tablet, angle: 300)))
    #expect(running.next(3, of: client) == ["hinge 300", "mode tablet", "orientation left-up"])
  }

  @Test(
    "A hinge sensor is read while it is there; its angle and mode reach the clients before the two accelerometers' hinge"
  )
  func hingeSensorGivesTheMode() throws {
    let running = try InProcessDaemon()
    running.sensorStandsNormal()
    running.report(.detected(.device(.leftUp, time: zero)))
    running.report(.hinge(HingeStatus(available: true, mode: .tablet, angle: 300)))
    let client = try running.connect(greeting: 7)
    #expect(client.lines.suffix(2) == ["mode tablet", "hinge 300"])
    #expect(running.sampler.readingNeeds == [], "no hinge sensor, nothing to read")
    running.report(.readings(.present(.hinge, true)))
    #expect(running.next(2, of: client) == ["hinge undefined", "mode unknown"])
    #expect(
      running.turn(until: { running.sampler.readingNeeds == [[.hinge]] }), "the hinge sensor is read at once")
    running.report(.readings(.value(.hinge(degrees: 120))))
    #expect(running.next(3, of: client) == ["hinge 120", "mode laptop", "orientation normal"])
    running.report(.readings(.value(.hinge(degrees: 250))))
    #expect(running.next(3, of: client) == ["hinge 250", "mode tablet", "orientation left-up"])
    let asker = try running.connect(greeting: 7)
    asker.send("info\n")
    let line = "info tablet-mode tablet (from hinge sensor at 250 degrees; rotate tablet, from auto)"
    #expect(running.turn(until: { asker.lines.contains("ok") }))
    #expect(asker.lines.contains(line), "\(asker.lines)")
    // Gone, the two accelerometers' hinge gives the mode again.
    running.report(.readings(.present(.hinge, false)))
    #expect(running.next(1, of: client) == ["hinge 300"])
    running.clock.advance(by: ReadingDemand.linger)
    #expect(running.turn(until: { running.sampler.readingNeeds == [[.hinge], []] }))
  }

  @Test("A socket file replaced while the daemon runs is left to its new owner when it shuts down")
  func replacedSocketFileIsLeftAlone() throws {
    let running = try InProcessDaemon()
    try FileManager.default.removeItem(atPath: running.socketPath)
    try "someone else's\n".write(toFile: running.socketPath, atomically: false, encoding: .utf8)
    running.stop()
    // The premise that the file would go otherwise: `shutDownStopsEverything`.
    #expect(try String(contentsOfFile: running.socketPath, encoding: .utf8) == "someone else's\n")
  }

  @Test("--allowed at start beats the saved set, and a saved lock it leaves out is dropped and saved so")
  func allowedOnTheCommandLineBeatsTheSavedSet() throws {
    let scratch = try ScratchDirectory()
    let saved = stateText(lock: "right-up", allowed: "normal,right-up", chosen: true)
    try saved.write(toFile: scratch.path + "/state", atomically: false, encoding: .utf8)
    // The premise: without --allowed the saved lock and set are restored.
    var running = try InProcessDaemon(scratch: scratch)
    #expect(
      try running.connect().lines[2...4] == [
        "orientation right-up", "lock right-up", "allowed normal,right-up",
      ])
    running.stop()
    #expect(running.stateFile == saved)

    running = try InProcessDaemon(["--allowed", "normal,left-up"], scratch: scratch)
    running.sensorStandsNormal()
    let client = try running.connect()
    #expect(
      client.lines == [
        "sensor online", "device normal", "orientation normal", "lock off", "allowed normal,left-up",
        "mode unknown",
      ])
    // Saved at start: the set from --allowed, which is no client's choice, and no lock.
    #expect(running.stateFile == stateText(allowed: "normal,left-up", chosen: false))
  }

  @Test(
    "Sampling stops once nothing has needed it for the idle delay, and a newcomer who hears device changes makes it resume and is greeted once a fresh sample is in"
  )
  func samplingFollowsTheDemand() throws {
    let running = try InProcessDaemon(["--rotate", "tablet"])
    running.sensorStandsNormal()
    #expect(running.sampler.configuration?.failIfNoSensor == false)
    // Under the tablet policy in no mode yet, the screen follows the device: sampling goes on.
    let controller = try running.connect()
    controller.send("subscribe orientation,mode\nmode laptop\n")
    #expect(running.next(3, of: controller) == ["ok", "mode laptop", "ok"])
    running.settle()
    #expect(running.sampler.demands == [], "sampling stopped before the idle delay")
    running.clock.advance(by: SamplingDemandState.idleDelay)
    #expect(running.turn(until: { running.sampler.demands == [.idle] }), "\(running.sampler.commands)")

    // A client who hears device changes: sampling resumes, and its greeting waits for a fresh
    // sample, the state held being stale.
    let newcomer = try running.connect(greeting: 0)
    #expect(
      running.turn(until: { running.sampler.demands == [.idle, .sample] }), "\(running.sampler.commands)")
    running.settle()
    #expect(newcomer.lines == [], "greeted with a stale state")
    running.report(.detected(.device(.leftUp, time: zero)), .fresh(time: zero))
    #expect(
      running.lines(6, of: newcomer) == [
        "sensor online", "device left-up", "orientation normal", "lock off", "allowed \(allFour)",
        "mode laptop",
      ])

    // While it stays, it keeps the sensor read, the idle delay long past.
    running.clock.advance(by: SamplingDemandState.idleDelay * 2)
    running.settle()
    #expect(
      running.sampler.demands == [.idle, .sample], "sampling stopped while a client hears device changes")

    // It leaves: after the idle delay, and only then, sampling stops again.
    newcomer.send("quit\n")
    #expect(running.turn(until: { newcomer.closedByServer }))
    running.settle()
    #expect(running.sampler.demands == [.idle, .sample])
    running.clock.advance(by: SamplingDemandState.idleDelay)
    #expect(running.turn(until: { running.sampler.demands == [.idle, .sample, .idle] }))
    running.stop()
    #expect(running.sampler.stopped)
  }

  @Test(
    "A newcomer waiting for a fresh state is greeted with the last known one once the fresh-sample wait runs out, not before"
  )
  func freshSampleWaitRunsOut() throws {
    let running = try InProcessDaemon(["--rotate", "tablet"])
    running.sensorStandsNormal()
    let controller = try running.connect()
    controller.send("subscribe orientation,mode\nmode laptop\n")
    #expect(running.next(3, of: controller) == ["ok", "mode laptop", "ok"])
    running.clock.advance(by: SamplingDemandState.idleDelay)
    #expect(running.turn(until: { running.sampler.demands == [.idle] }), "\(running.sampler.commands)")

    let newcomer = try running.connect(greeting: 0)
    #expect(
      running.turn(until: { running.sampler.demands == [.idle, .sample] }), "\(running.sampler.commands)")
    running.clock.advance(by: SamplingDemandState.freshWait - .milliseconds(1))
    running.settle()
    #expect(newcomer.lines == [], "greeted before the fresh-sample wait ran out")
    // No fresh sample came: the state held is served as it is.
    running.clock.advance(by: .milliseconds(1))
    #expect(
      running.lines(6, of: newcomer) == [
        "sensor online", "device normal", "orientation normal", "lock off", "allowed \(allFour)",
        "mode laptop",
      ])
  }

  @Test(
    "A client that streams samples has them forwarded and hears them, keeps the sensor read while it does, and forwarding and sampling stop when it leaves"
  )
  func sampleStreamsKeepTheSensorRead() throws {
    let running = try InProcessDaemon(["--rotate", "tablet"])
    running.sensorStandsNormal()
    let streamer = try running.connect()
    #expect(running.sampler.forwarding == [])
    streamer.send("subscribe orientation\nsamples corrected\n")
    #expect(running.next(2, of: streamer) == ["ok", "ok"])
    #expect(running.sampler.forwarding == [true])
    let sample = Sample(
      time: SampleTime(microseconds: 1_500_000), raw: Vector3(0.5, -1, 0.25), gravity: Vector3(0, -1, 0))
    running.report(.detected(.sample(sample)))
    #expect(running.next(1, of: streamer) == ["sample 1.500 0.0000 -1.0000 0.0000"])

    // Laptop mode set by hand holds the screen: only the stream needs the sensor now.
    streamer.send("mode laptop\n")
    #expect(running.next(1, of: streamer) == ["ok"])
    running.clock.advance(by: SamplingDemandState.idleDelay * 2)
    running.settle()
    #expect(running.sampler.demands == [], "sampling stopped while a client streams samples")

    streamer.send("quit\n")
    #expect(running.turn(until: { streamer.closedByServer }))
    #expect(running.sampler.forwarding == [true, false])
    running.settle()
    #expect(running.sampler.demands == [], "sampling stopped before the idle delay")
    running.clock.advance(by: SamplingDemandState.idleDelay)
    #expect(running.turn(until: { running.sampler.demands == [.idle] }), "\(running.sampler.commands)")
  }

  @Test("A light level is published only while the light sensor is read, which is while a client hears it")
  func lightLevelsOnlyWhileRead() throws {
    let running = try InProcessDaemon()
    running.sensorStandsNormal()
    running.report(.readings(.present(.light, true)))
    let client = try running.connect()
    #expect(running.sampler.readingNeeds == [])
    client.send("subscribe all,light\n")
    #expect(running.next(1, of: client) == ["ok"])
    #expect(running.sampler.readingNeeds == [[.light]])
    running.report(.readings(.value(.light(LightLevel(120, unit: .lux)))))
    #expect(running.next(1, of: client) == ["light 120 lux"])
    #expect(running.daemon.sensorReadings.light == .value(LightLevel(120, unit: .lux)))

    // Nobody hears it any more: after the linger it stops, and its value is unknown again.
    client.send("subscribe all\n")
    #expect(running.next(1, of: client) == ["ok"])
    running.clock.advance(by: ReadingDemand.linger)
    #expect(running.turn(until: { running.sampler.readingNeeds == [[.light], []] }))
    #expect(running.daemon.sensorReadings.light == .unknown)
    // A value read just before the sensor stopped is not taken.
    running.report(.readings(.value(.light(LightLevel(300, unit: .lux)))))
    #expect(running.daemon.sensorReadings.light == .unknown)
    // Heard again, the sensor is read again, and its values are published again.
    client.send("subscribe all,light\n")
    #expect(running.next(1, of: client) == ["ok"])
    #expect(running.sampler.readingNeeds == [[.light], [], [.light]])
    running.report(.readings(.value(.light(LightLevel(310, unit: .lux)))))
    #expect(running.next(1, of: client) == ["light 310 lux"])
  }

  @Test("A failure the sampler reports ends the run with that failure")
  func samplerFailureEndsTheRun() throws {
    let running = try InProcessDaemon()
    running.sensorStandsNormal()
    #expect(!running.daemon.loop.isStopping)
    #expect(try running.daemon.outcome() == .success)
    let failure = Failure("the sensor is gone for good", exitCode: .ioError)
    running.report(.failed(failure))
    #expect(running.daemon.loop.isStopping)
    #expect(throws: failure) { try running.daemon.outcome() }
  }

  @Test("Shutting down stops the sampler, closes the clients and removes the socket file")
  func shutDownStopsEverything() throws {
    let running = try InProcessDaemon()
    let client = try running.connect()
    #expect(FileManager.default.fileExists(atPath: running.socketPath))
    #expect(!running.sampler.stopped)
    running.stop()
    #expect(running.sampler.stopped)
    client.readAvailable()
    #expect(client.closedByServer)
    #expect(!FileManager.default.fileExists(atPath: running.socketPath))
  }
}
