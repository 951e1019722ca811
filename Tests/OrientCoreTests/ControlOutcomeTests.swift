import OrientCore
import Testing

@Suite("Control commands on the whole state")
struct ControlOutcomeTests {
  @Test("lock, rotate and unlock change the screen and the saved state; a repeated unlock changes nothing")
  func lockRotateUnlock() throws {
    var tracker = OrientationTracker()
    _ = tracker.setDevice(.normal, at: .zero)
    let locked = try tracker.control(.lock(.leftUp)).get()
    #expect(locked.changes == [.lock(.leftUp), .orientation(.leftUp)])
    #expect(locked.changesSavedState)
    #expect(!locked.changesOverride)
    let rotated = try tracker.control(.rotate(.clockwise)).get()
    #expect(rotated.changes == [.lock(.bottomUp), .orientation(.bottomUp)])
    // Unlocked, the screen follows the device again at once.
    #expect(try tracker.control(.unlock).get().changes == [.lock(nil), .orientation(.normal)])
    let again = try tracker.control(.unlock).get()
    #expect(again.changes.isEmpty)
    #expect(!again.changesSavedState, "nothing to save, so the ok need not wait")
  }

  @Test("A lock outside the allowed set fails with not-allowed and changes nothing")
  func notAllowed() {
    var tracker = OrientationTracker(policy: ScreenPolicy(allowed: AllowedOrientations(.normal)))
    let before = tracker.snapshot
    guard case .failure(let error) = tracker.control(.lock(.leftUp)) else {
      Issue.record("a lock outside the allowed set was taken")
      return
    }
    #expect(error.code == .notAllowed)
    #expect(error.message == "left-up is not allowed (allowed: normal)")
    #expect(tracker.snapshot == before)
  }

  @Test("allow sets the allowed set and releases a screen it no longer allows")
  func allow() throws {
    var tracker = OrientationTracker()
    _ = tracker.setDevice(.leftUp, at: .zero)
    let outcome = try tracker.control(.allow(AllowedOrientations(.normal))).get()
    #expect(outcome.changes.contains(.allowed(AllowedOrientations(.normal))), "\(outcome.changes)")
    #expect(outcome.changesSavedState)
  }

  @Test("mode sets the override: saved even when what clients see stays, and auto gives it back")
  func modeOverride() throws {
    var tracker = OrientationTracker(mode: TabletModeState(policy: .always))
    let laptop = try tracker.control(.mode(.laptop)).get()
    #expect(laptop.changes == [.mode(.laptop)])
    #expect(laptop.changesOverride && laptop.changesSavedState)
    let same = try tracker.control(.mode(.laptop)).get()
    #expect(same.changes.isEmpty && !same.changesOverride && !same.changesSavedState)
    let auto = try tracker.control(.mode(nil)).get()
    #expect(auto.changes == [.mode(.unknown)])
    #expect(auto.changesOverride)
  }

  @Test("A command that is not a control command is refused as an internal error")
  func notAControlCommand() {
    var tracker = OrientationTracker()
    guard case .failure(let error) = tracker.control(.ping) else {
      Issue.record("ping passed for a control command")
      return
    }
    #expect(error.code == .internalError)
  }
}
