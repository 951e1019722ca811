import OrientCore
import Testing

/// The time `milliseconds` after the origin.
private func at(_ milliseconds: Int) -> SampleTime { SampleTime(sinceOrigin: .milliseconds(milliseconds)) }

/// The set of `members`.
private func orientations(_ members: ScreenOrientation...) -> AllowedOrientations {
  AllowedOrientations(members.map(AllowedOrientations.init))
}

/// A tracker whose device is upright and whose screen is locked there: normal.
private func lockedUpright(_ settings: RotationSuggestion.Settings = .defaults) throws -> OrientationTracker {
  var tracker = OrientationTracker()
  _ = tracker.configureSuggestions(settings)
  _ = tracker.setDevice(.normal, at: at(0))
  _ = try tracker.control(.lock(.normal)).get()
  return tracker
}

@Suite("Suggesting a rotation to a locked screen")
struct RotationSuggestionTests {
  @Test("A device that holds another allowed orientation for the hold gets it suggested, not before")
  func suggestsAfterHold() throws {
    var tracker = try lockedUpright()
    #expect(tracker.setDevice(.rightUp, at: at(1000)) == [.device(.rightUp)])
    #expect(tracker.suggestionDeadline == at(1500), "the hold is 500 ms by default")
    #expect(tracker.advanceSuggestion(to: at(1499)) == [])
    #expect(tracker.suggestion.suggested == nil)
    #expect(tracker.advanceSuggestion(to: at(1500)) == [.suggestion(.rightUp)])
    #expect(tracker.suggestion.suggested == .rightUp)
    #expect(tracker.orientation == .normal, "a suggestion turns nothing")
    #expect(tracker.policy.lock == .normal)
  }

  @Test("An orientation the allowed set leaves out is never suggested")
  func notForDisallowed() throws {
    var tracker = OrientationTracker(policy: ScreenPolicy(allowed: orientations(.normal, .bottomUp)))
    _ = tracker.setDevice(.normal, at: at(0))
    _ = try tracker.control(.lock(.normal)).get()
    #expect(tracker.setDevice(.leftUp, at: at(1000)) == [.device(.leftUp)])
    #expect(tracker.suggestionDeadline == nil)
    #expect(tracker.advanceSuggestion(to: at(10_000)) == [])
    // An allowed one is.
    _ = tracker.setDevice(.bottomUp, at: at(20_000))
    #expect(tracker.advanceSuggestion(to: at(20_500)) == [.suggestion(.bottomUp)])
  }

  @Test("An unlocked screen follows the device and is suggested nothing")
  func notWhenUnlocked() {
    var tracker = OrientationTracker()
    _ = tracker.setDevice(.normal, at: at(0))
    #expect(tracker.setDevice(.rightUp, at: at(1000)) == [.device(.rightUp), .orientation(.rightUp)])
    #expect(tracker.suggestionDeadline == nil)
    #expect(tracker.advanceSuggestion(to: at(10_000)) == [])
  }

  @Test("A screen held upright in laptop mode is suggested nothing: unlocked, it would not turn either")
  func notWhenHeld() throws {
    var tracker = OrientationTracker(mode: TabletModeState(policy: .tablet))
    _ = tracker.setDevice(.normal, at: at(0))
    _ = try tracker.control(.lock(.normal)).get()
    _ = try tracker.control(.mode(.laptop)).get()
    _ = tracker.setDevice(.leftUp, at: at(1000))
    #expect(tracker.suggestionDeadline == nil)
    #expect(tracker.advanceSuggestion(to: at(10_000)) == [])
  }

  @Test("A suggestion expires after its timeout, and is not made again until the device has left it")
  func expires() throws {
    var tracker = try lockedUpright()
    _ = tracker.setDevice(.leftUp, at: at(1000))
    #expect(tracker.advanceSuggestion(to: at(1500)) == [.suggestion(.leftUp)])
    #expect(tracker.suggestionDeadline == at(6500), "it lasts 5 s by default")
    #expect(tracker.advanceSuggestion(to: at(6499)) == [])
    #expect(tracker.advanceSuggestion(to: at(6500)) == [.suggestion(nil)])
    #expect(tracker.suggestionDeadline == nil)
    #expect(tracker.advanceSuggestion(to: at(60_000)) == [], "held on, it is not offered again")
    guard case .failure(let error) = tracker.control(.acceptSuggestion) else {
      Issue.record("an expired suggestion was accepted")
      return
    }
    #expect(error.code == .noSuggestion)
    // Turned away and back, the device offers it again.
    _ = tracker.setDevice(.faceUp, at: at(61_000))
    _ = tracker.setDevice(.leftUp, at: at(62_000))
    #expect(tracker.advanceSuggestion(to: at(62_500)) == [.suggestion(.leftUp)])
  }

  @Test("A suggestion goes as soon as the device leaves it; turning elsewhere starts a new hold")
  func leaves() throws {
    var tracker = try lockedUpright()
    _ = tracker.setDevice(.leftUp, at: at(1000))
    _ = tracker.advanceSuggestion(to: at(1500))
    #expect(tracker.setDevice(.faceUp, at: at(2000)) == [.device(.faceUp), .suggestion(nil)])
    #expect(tracker.suggestionDeadline == nil)
    _ = tracker.setDevice(.leftUp, at: at(3000))
    _ = tracker.advanceSuggestion(to: at(3500))
    #expect(tracker.setDevice(.bottomUp, at: at(4000)) == [.device(.bottomUp), .suggestion(nil)])
    #expect(tracker.suggestionDeadline == at(4500))
    #expect(tracker.advanceSuggestion(to: at(4500)) == [.suggestion(.bottomUp)])
    // Back where the lock is: nothing to suggest.
    #expect(tracker.setDevice(.normal, at: at(5000)) == [.device(.normal), .suggestion(nil)])
    #expect(tracker.suggestionDeadline == nil)
  }

  @Test("A device that only passes through an orientation within the hold gets nothing suggested")
  func passingThrough() throws {
    var tracker = try lockedUpright()
    _ = tracker.setDevice(.leftUp, at: at(1000))
    #expect(tracker.setDevice(.faceUp, at: at(1300)) == [.device(.faceUp)])
    #expect(tracker.suggestionDeadline == nil)
    #expect(tracker.advanceSuggestion(to: at(1500)) == [])
  }

  @Test("accept-suggestion turns the screen to the suggestion and keeps it locked there")
  func acceptTurnsAndKeepsLock() throws {
    var tracker = try lockedUpright()
    _ = tracker.setDevice(.rightUp, at: at(1000))
    _ = tracker.advanceSuggestion(to: at(1500))
    let outcome = try tracker.control(.acceptSuggestion).get()
    #expect(outcome.changes == [.lock(.rightUp), .orientation(.rightUp), .suggestion(nil)])
    #expect(outcome.changesSavedState, "the new lock is saved")
    #expect(tracker.policy.lock == .rightUp)
    #expect(tracker.suggestionDeadline == nil)
    // Locked there, the screen stays when the device turns back, and normal is suggested.
    #expect(tracker.setDevice(.normal, at: at(3000)) == [.device(.normal)])
    #expect(tracker.orientation == .rightUp)
    #expect(tracker.advanceSuggestion(to: at(3500)) == [.suggestion(.normal)])
  }

  @Test("accept-suggestion with nothing suggested is refused with no-suggestion, and changes nothing")
  func acceptWithNoneRefused() throws {
    var tracker = try lockedUpright()
    _ = tracker.setDevice(.rightUp, at: at(1000))
    let before = tracker.snapshot
    // Still holding: not suggested yet.
    guard case .failure(let error) = tracker.control(.acceptSuggestion) else {
      Issue.record("a suggestion not made yet was accepted")
      return
    }
    #expect(error.code == .noSuggestion)
    #expect(error.message == "no rotation is suggested now (none was made, or it went)")
    #expect(tracker.snapshot == before)
    #expect(tracker.suggestionDeadline == at(1500), "the hold goes on")
  }

  @Test("Unlocking, locking where the device is, or an allowed set without it ends a suggestion")
  func screenChangesEndIt() throws {
    var tracker = try lockedUpright()
    _ = tracker.setDevice(.rightUp, at: at(1000))
    _ = tracker.advanceSuggestion(to: at(1500))
    #expect(
      try tracker.control(.unlock).get().changes == [.lock(nil), .orientation(.rightUp), .suggestion(nil)])

    tracker = try lockedUpright()
    _ = tracker.setDevice(.rightUp, at: at(1000))
    _ = tracker.advanceSuggestion(to: at(1500))
    #expect(
      try tracker.control(.lock(.rightUp)).get().changes == [
        .lock(.rightUp), .orientation(.rightUp), .suggestion(nil),
      ])

    tracker = try lockedUpright()
    _ = tracker.setDevice(.rightUp, at: at(1000))
    _ = tracker.advanceSuggestion(to: at(1500))
    #expect(
      try tracker.control(.allow(orientations(.normal, .leftUp))).get().changes == [
        .allowed(orientations(.normal, .leftUp)), .suggestion(nil),
      ])
  }

  @Test("A lock alone starts no suggestion: only a turn of the device does")
  func lockAloneSuggestsNothing() throws {
    var tracker = OrientationTracker()
    _ = tracker.setDevice(.rightUp, at: at(0))
    #expect(try tracker.control(.lock(.normal)).get().changes == [.lock(.normal), .orientation(.normal)])
    #expect(tracker.suggestionDeadline == nil)
  }

  @Test("suggest off makes none and ends the one there is; a hold of zero suggests at once")
  func settings() throws {
    var tracker = try lockedUpright(
      RotationSuggestion.Settings(enabled: false, hold: .zero, timeout: .seconds(5)))
    _ = tracker.setDevice(.leftUp, at: at(1000))
    #expect(tracker.suggestionDeadline == nil)

    tracker = try lockedUpright(RotationSuggestion.Settings(enabled: true, hold: .zero, timeout: .seconds(2)))
    #expect(tracker.setDevice(.leftUp, at: at(1000)) == [.device(.leftUp), .suggestion(.leftUp)])
    #expect(tracker.suggestionDeadline == at(3000))
    #expect(tracker.configureSuggestions(.defaults) == [], "new settings leave a suggestion as it is")
    var off = RotationSuggestion.Settings.defaults
    off.enabled = false
    #expect(tracker.configureSuggestions(off) == [.suggestion(nil)])
  }
}
