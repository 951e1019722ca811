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

/// A state whose hinge sensor read `angles` in turn.
private func hingeSensorRead(_ angles: [Int], policy: RotatePolicy = .auto) -> TabletModeState {
  var state = TabletModeState(policy: policy)
  state.setHingeSensor(present: true)
  for angle in angles { state.readHingeSensor(degrees: angle) }
  return state
}

@Suite("The hinge sensor as a mode source, and its cross-check of the switch")
struct HingeSensorModeTests {
  @Test("The hinge sensor is preferred over two accelerometers' hinge, and its angle is the one published")
  func preferred() {
    var state = TabletModeState()
    state.hinge = HingeStatus(available: true, mode: .tablet, angle: 250)
    state.setHingeSensor(present: true)
    #expect(state.source == .hingeSensor)
    #expect(state.mode == .unknown, "found, not read yet")
    #expect(state.hingeAngle == nil)
    state.readHingeSensor(degrees: 100)
    #expect(state.mode == .laptop && state.hingeAngle == 100)
    state.setHingeSensor(present: false)
    #expect(state.source == .hinge && state.mode == .tablet && state.hingeAngle == 250)
  }

  @Test(
    "A sweep up and back turns tablet at 200 and laptop again at 160, the two accelerometers' thresholds",
    arguments: [
      ([100, 150, 170, 190, 199], TabletMode.laptop),
      ([100, 200], .tablet),
      ([100, 250, 190, 170, 161], .tablet),
      ([100, 250, 160], .laptop),
      ([185], .tablet),
      ([175], .laptop),
      ([360], .tablet),
      ([0], .laptop),
    ])
  func thresholds(angles: [Int], mode: TabletMode) {
    #expect(hingeSensorRead(angles).mode == mode)
    #expect(hingeSensorRead(angles).hingeSensor.angle == angles.last)
  }

  @Test("The angle clients see moves by 5 degrees or with the mode; the mode follows every reading")
  func publishedSteps() {
    var state = hingeSensorRead([100, 198])
    #expect(state.hingeSensor.angle == 198 && state.mode == .laptop)
    state.readHingeSensor(degrees: 199)
    #expect(state.hingeSensor.angle == 198, "a degree is no move to publish")
    state.readHingeSensor(degrees: 200)
    #expect(state.mode == .tablet && state.hingeSensor.angle == 200, "the mode turned at 200, and says so")
    state.readHingeSensor(degrees: 204)
    #expect(state.hingeSensor.angle == 200)
    state.readHingeSensor(degrees: 205)
    #expect(state.hingeSensor.angle == 205)
  }

  @Test(
    "A switch's tablet is not trusted while the hinge sensor reads a laptop's angle; the log says so once")
  func overruled() {
    var state = hingeSensorRead([172], policy: .auto)
    var before = state
    state.switchSaysTablet = true
    #expect(state.switchOverruled)
    #expect(state.source == .hingeSensor && state.mode == .laptop && state.holdsNormal)
    let notes = state.crossCheckNotes(from: before)
    #expect(notes.count == 1 && notes.first?.level == .warning)
    #expect(
      notes.first?.text
        == "tablet-mode switch says tablet while the hinge sensor reads 172 degrees, a laptop's angle "
        + "(some switches fire when a laptop stands on its side): not trusted while the hinge reads so; the mode is laptop"
    )
    #expect(
      state.summary
        == "laptop (from hinge sensor at 172 degrees; switch says tablet, not trusted: the hinge reads a laptop's angle; rotate tablet, from auto)"
    )
    before = state
    state.readHingeSensor(degrees: 150)
    #expect(state.crossCheckNotes(from: before) == [], "said once, not at every angle")
    // Opened past 200, the hinge agrees with the switch: the switch is trusted again.
    state.readHingeSensor(degrees: 250)
    #expect(!state.switchOverruled && state.source == .tabletSwitch && state.mode == .tablet)
    #expect(state.summary == "tablet (from switch; rotate tablet, from auto)")
  }

  @Test("A switch's laptop is kept against a hinge sensor that reads a tablet's angle, and info says both")
  func disputed() {
    var state = hingeSensorRead([250])
    let before = state
    state.switchSaysTablet = false
    #expect(state.switchDisputed && !state.switchOverruled)
    #expect(state.source == .tabletSwitch && state.mode == .laptop)
    let notes = state.crossCheckNotes(from: before)
    #expect(
      notes == [
        LogNote(
          .info,
          "tablet-mode switch says laptop while the hinge sensor reads 250 degrees, a tablet's angle: "
            + "the switch is kept (the keyboard follows it too)")
      ])
    #expect(
      state.summary
        == "laptop (from switch; hinge sensor says tablet at 250 degrees, the switch's laptop is kept; rotate tablet, from auto)"
    )
  }

  @Test("A hinge sensor not read yet, or stopped, overrules no switch; without a switch its mode is unknown")
  func unreadOverrulesNothing() {
    var state = TabletModeState()
    state.setHingeSensor(present: true)
    state.switchSaysTablet = true
    #expect(!state.switchOverruled && state.mode == .tablet)
    state.readHingeSensor(degrees: 120)
    #expect(state.switchOverruled && state.mode == .laptop)
    state.hingeSensorStopped()
    #expect(!state.switchOverruled && state.mode == .tablet)
    state.switchSaysTablet = nil
    #expect(state.source == .hingeSensor && state.mode == .unknown && !state.holdsNormal)
  }

  @Test("The hinge sensor lets the accelerometer rest while the screen is held; two accelerometers do not")
  func samplesNotNeeded() {
    let state = hingeSensorRead([100], policy: .tablet)
    #expect(state.holdsNormal && state.modeNeedsNoSamples)
    #expect(state.summary == "laptop (from hinge sensor at 100 degrees; rotate tablet)")
  }

  @Test("The tracker publishes the hinge sensor's angle, then the mode, then the screen it holds")
  func trackerPublishes() {
    var tracker = OrientationTracker(mode: TabletModeState(policy: .tablet))
    _ = tracker.setDevice(.leftUp, at: .zero)
    #expect(tracker.updateMode { $0.setHingeSensor(present: true) } == [])
    #expect(tracker.snapshot.last == .hinge(nil), "a hinge sensor is stated, its angle unknown yet")
    #expect(tracker.updateMode { $0.readHingeSensor(degrees: 250) } == [.hinge(250), .mode(.tablet)])
    #expect(
      tracker.updateMode { $0.readHingeSensor(degrees: 120) } == [
        .hinge(120), .mode(.laptop), .orientation(.normal),
      ])
    #expect(
      tracker.updateMode { $0.setHingeSensor(present: false) } == [
        .hinge(nil), .mode(.unknown), .orientation(.leftUp),
      ])
  }
}
