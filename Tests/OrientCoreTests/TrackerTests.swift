import OrientCore
import Testing

@Suite("Tracking the whole state")
struct TrackerTests {
  @Test("When one sample changes both, the device change comes before the screen change")
  func deviceBeforeScreen() {
    var tracker = OrientationTracker(settings: instant)
    #expect(
      tracker.add(DeviceOrientation.leftUp.gravity, at: .zero) == [.device(.leftUp), .orientation(.leftUp)])
    #expect(
      tracker.add(DeviceOrientation.faceUp.gravity, at: SampleTime(milliseconds: 1)) == [.device(.faceUp)])
  }

  @Test("Detection goes on while the screen is locked")
  func detectionWhileLocked() throws {
    var tracker = OrientationTracker(settings: instant)
    _ = tracker.add(DeviceOrientation.normal.gravity, at: .zero)
    _ = try tracker.apply { (policy: inout ScreenPolicy) throws(PolicyError) in try policy.lock() }
    #expect(
      tracker.add(DeviceOrientation.rightUp.gravity, at: SampleTime(milliseconds: 1)) == [.device(.rightUp)])
    #expect(tracker.orientation == .normal)
    let changes = tracker.apply { (policy: inout ScreenPolicy) in policy.unlock() }
    #expect(changes == [.lock(nil), .orientation(.rightUp)])
  }

  @Test("The snapshot lists sensor, device, orientation, lock and allowed in protocol order")
  func snapshot() {
    var tracker = OrientationTracker(settings: instant)
    _ = tracker.setSensor(online: true)
    _ = tracker.add(DeviceOrientation.bottomUp.gravity, at: .zero)
    #expect(
      tracker.snapshot.map(\.line) == [
        "sensor online", "device bottom-up", "orientation bottom-up", "lock off",
        "allowed normal,left-up,bottom-up,right-up",
      ])
  }

  @Test("Sensor status changes are reported once")
  func sensorStatus() {
    var tracker = OrientationTracker()
    #expect(tracker.setSensor(online: true) == [.sensor(online: true)])
    #expect(tracker.setSensor(online: true) == [])
    #expect(tracker.setSensor(online: false) == [.sensor(online: false)])
  }
}

@Suite("Rendering and parsing protocol lines")
struct ProtocolTests {
  @Test("Every state line parses back to the change it was rendered from")
  func stateLinesRoundTrip() {
    let changes: [StateChange] = [
      .sensor(online: true), .sensor(online: false), .device(nil), .device(.faceDown), .orientation(nil),
      .orientation(.rightUp), .lock(nil), .lock(.bottomUp), .allowed(.all),
      .allowed(AllowedOrientations(.leftUp)),
    ]
    for change in changes {
      #expect(StateChange(line: change.line) == change)
    }
    #expect(StateChange(line: "orientation face-up") == nil)
    #expect(StateChange(line: "ok") == nil)
  }

  @Test("JSON events carry the value as a string, and allowed as an array")
  func jsonEvents() {
    #expect(
      ProtocolRendering.line(for: .orientation(.leftUp), format: .json)
        == "{\"event\":\"orientation\",\"value\":\"left-up\"}\n")
    #expect(
      ProtocolRendering.line(for: .allowed(try! AllowedOrientations.parse("normal,left-up")), format: .json)
        == "{\"event\":\"allowed\",\"value\":[\"normal\",\"left-up\"]}\n")
    #expect(
      ProtocolRendering.line(for: .lock(nil), format: .json) == "{\"event\":\"lock\",\"value\":\"off\"}\n")
  }

  @Test("Replies render in text and JSON, errors with code and escaped message")
  func replies() {
    let error = ProtocolError(.notAllowed, "say \"no\"\n")
    #expect(ProtocolRendering.line(for: .ok, format: .text) == "ok\n")
    #expect(ProtocolRendering.line(for: .error(error), format: .text) == "error not-allowed say \"no\"\n\n")
    #expect(ProtocolRendering.line(for: .pong, format: .json) == "{\"reply\":\"pong\"}\n")
    #expect(
      ProtocolRendering.line(for: .error(error), format: .json)
        == "{\"reply\":\"error\",\"code\":\"not-allowed\",\"message\":\"say \\\"no\\\"\\n\"}\n")
  }

  @Test("Commands parse with their arguments")
  func commands() throws {
    #expect(try ClientCommand.parse("get") == .get)
    #expect(try ClientCommand.parse("lock") == .lock(nil))
    #expect(try ClientCommand.parse("lock right-up") == .lock(.rightUp))
    #expect(try ClientCommand.parse("rotate cw") == .rotate(.clockwise))
    #expect(try ClientCommand.parse("rotate  ccw") == .rotate(.counterClockwise))
    #expect(
      try ClientCommand.parse("allow normal, left-up")
        == .allow(try AllowedOrientations.parse("normal,left-up")))
    #expect(try ClientCommand.parse("format json") == .format(.json))
    #expect(try ClientCommand.parse("ping") == .ping)
    #expect(try ClientCommand.parse("quit") == .quit)
  }

  @Test(
    "Bad commands get the right error code",
    arguments: [
      ("frobnicate", ProtocolError.Code.unknownCommand), ("GET", .unknownCommand), ("get now", .badArgument),
      ("lock face-up", .badArgument), ("lock a b", .badArgument), ("rotate", .badArgument),
      ("rotate left", .badArgument), ("allow", .badArgument), ("allow up", .badArgument),
      ("format xml", .badArgument), ("ping pong", .badArgument),
    ])
  func badCommands(line: String, code: ProtocolError.Code) {
    #expect {
      try ClientCommand.parse(Substring(line))
    } throws: { error in
      (error as? ProtocolError)?.code == code
    }
  }

  @Test("Echoed client text is limited to printable ASCII")
  func printable() {
    #expect(ProtocolError.printable("a\u{1b}b\u{e9}") == "a?b?")
    #expect(ProtocolError.printable(Substring(String(repeating: "x", count: 50))).hasSuffix("..."))
  }
}

@Suite("Splitting client input into lines")
struct LineSplitterTests {
  func feed(_ splitter: inout LineSplitter, _ text: String) -> [SplitLine] {
    Array(text.utf8).withUnsafeBytes { splitter.append($0) }
  }

  @Test("Lines split on LF, a CR before it is dropped, and a partial line waits")
  func splits() {
    var splitter = LineSplitter(limit: 16)
    #expect(feed(&splitter, "get\r\nping\nlo") == [.line(Array("get".utf8)), .line(Array("ping".utf8))])
    #expect(splitter.hasPartialLine)
    #expect(feed(&splitter, "ck\n") == [.line(Array("lock".utf8))])
    #expect(!splitter.hasPartialLine)
  }

  @Test("A line longer than the limit is refused, whether or not its LF has come")
  func tooLong() {
    var open = LineSplitter(limit: 8)
    #expect(feed(&open, "123456789012") == [.tooLong])
    var closed = LineSplitter(limit: 8)
    #expect(feed(&closed, "ok\n123456789\n") == [.line(Array("ok".utf8)), .tooLong])
    var exact = LineSplitter(limit: 8)
    #expect(feed(&exact, "12345678\r\n") == [.line(Array("12345678".utf8))])
  }
}

@Suite("The state file format")
struct PersistedStateTests {
  @Test("The state file round-trips")
  func roundTrip() throws {
    let state = PersistedState(lock: .leftUp, allowed: try AllowedOrientations.parse("left-up,normal"))
    #expect(try PersistedState.parse(state.fileText) == state)
    #expect(state.fileText == "# orientd-state 1\nlock left-up\nallowed normal,left-up\n")
  }

  @Test(
    "Corrupt state files are rejected",
    arguments: [
      "", "garbage", "# orientd-state 1\nlock sideways\nallowed normal\n", "# orientd-state 1\nlock off\n",
      "# orientd-state 1\nlock off\nallowed normal\nlock off\n", "\u{0}\u{1}",
    ])
  func corrupt(text: String) {
    #expect(throws: ValueError.self) { try PersistedState.parse(text) }
  }
}
