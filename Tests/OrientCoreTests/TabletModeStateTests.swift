import Testing

@testable import OrientCore

@Suite("The mode from its sources, and what the rotate policy makes of it")
struct TabletModeStateTests {
  @Test("A manual mode beats the switch, the switch beats the hinge, and without any the mode is unknown")
  func sourcesInOrder() {
    var state = TabletModeState()
    #expect(state.source == .none)
    #expect(state.mode == .unknown)
    state.hinge = HingeStatus(available: true, mode: .tablet, angle: 250)
    #expect(state.source == .hinge)
    #expect(state.mode == .tablet)
    state.switchSaysTablet = false
    #expect(state.source == .tabletSwitch)
    #expect(state.mode == .laptop)
    state.override = .tablet
    #expect(state.source == .manual)
    #expect(state.mode == .tablet)
    state.override = nil
    state.switchSaysTablet = nil
    state.hinge = .unavailable
    #expect(state.mode == .unknown)
  }

  @Test(
    "auto is tablet with a source and always without; only laptop under tablet holds the screen",
    arguments: [
      (RotatePolicy.auto, Bool?.none, TabletMode?.none, false),
      (.auto, false, nil, true),
      (.auto, true, nil, false),
      (.auto, nil, .laptop, true),
      (.always, false, nil, false),
      (.tablet, false, nil, true),
      (.tablet, nil, nil, false),
      (.tablet, nil, .laptop, true),
    ])
  func holding(policy: RotatePolicy, switchSaysTablet: Bool?, override: TabletMode?, holds: Bool) {
    var state = TabletModeState(policy: policy, override: override)
    state.switchSaysTablet = switchSaysTablet
    #expect(state.holdsNormal == holds)
  }

  @Test("Only a switch or a manual mode lets the sensor stop; the hinge needs its samples")
  func needsNoSamples() {
    var state = TabletModeState(policy: .tablet)
    state.hinge = HingeStatus(available: true, mode: .laptop, angle: 100)
    #expect(state.holdsNormal)
    #expect(!state.modeNeedsNoSamples)
    state.switchSaysTablet = false
    #expect(state.modeNeedsNoSamples)
  }

  @Test("A held screen is normal, or the first allowed orientation; release turns it to the device at once")
  func screenPolicyHold() throws {
    var policy = ScreenPolicy()
    _ = policy.deviceChanged(to: .leftUp)
    #expect(policy.hold(true) == [.orientation(.normal)])
    #expect(policy.deviceChanged(to: .bottomUp) == [])
    #expect(policy.hold(false) == [.orientation(.bottomUp)])
    var portrait = ScreenPolicy(allowed: try AllowedOrientations.parse("left-up,right-up"))
    _ = portrait.deviceChanged(to: .rightUp)
    #expect(portrait.hold(true) == [.orientation(.leftUp)])
  }

  @Test("The tracker reports the angle, then the mode, then the screen it holds")
  func trackerOrder() {
    var tracker = OrientationTracker(mode: TabletModeState(policy: .tablet))
    _ = tracker.setDevice(.leftUp, at: .zero)
    let changes = tracker.updateMode { $0.hinge = HingeStatus(available: true, mode: .laptop, angle: 110) }
    #expect(changes == [.hinge(110), .mode(.laptop), .orientation(.normal)])
  }

  @Test("Subscriptions parse from lists and all, and name a bad key")
  func subscriptions() throws {
    #expect(try Subscription.parse("orientation, mode") == [.orientation, .mode])
    #expect(try Subscription.parse("all") == .all)
    #expect(Subscription([.orientation, .mode]).listText == "orientation,mode")
    #expect(Subscription([.orientation]).includes(.orientation(.normal)))
    #expect(!Subscription([.orientation]).includes(.device(.normal)))
    #expect(throws: ValueError.self) { try Subscription.parse("device,") }
    #expect(throws: ValueError.self) { try Subscription.parse("tilt") }
  }

  @Test("The state file keeps a manual mode and reads files without one")
  func persisted() throws {
    let state = PersistedState(mode: .laptop)
    #expect(state.fileText.hasSuffix("mode laptop\n"))
    #expect(try PersistedState.parse(state.fileText).mode == .laptop)
    #expect(try PersistedState.parse("# orientd-state 1\nlock off\nallowed normal\n").mode == nil)
    #expect(throws: ValueError.self) {
      try PersistedState.parse("# orientd-state 1\nlock off\nallowed normal\nmode flat\n")
    }
  }

  @Test("mode and subscribe parse, with usage errors")
  func commands() throws {
    #expect(try ClientCommand.parse("mode laptop") == .mode(.laptop))
    #expect(try ClientCommand.parse("mode auto") == .mode(nil))
    #expect(try ClientCommand.parse("subscribe orientation,mode") == .subscribe([.orientation, .mode]))
    #expect(throws: ProtocolError.self) { try ClientCommand.parse("mode") }
    #expect(throws: ProtocolError.self) { try ClientCommand.parse("mode unknown") }
    #expect(StateChange(line: "hinge 210") == .hinge(210))
    #expect(StateChange(line: "hinge 361") == nil)
    #expect(StateChange(line: "mode tablet") == .mode(.tablet))
    #expect(
      ProtocolRendering.line(for: .hinge(nil), format: .json) == #"{"event":"hinge","value":null}"# + "\n")
  }
}
