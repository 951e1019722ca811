import OrientCore
import Testing

@Suite("The state a daemon starts with")
struct RestoredStateTests {
  @Test("The saved lock, allowed set and mode come back, with the rotate policy given")
  func restoresTheSavedState() {
    let saved = PersistedState(
      lock: .leftUp, allowed: [AllowedOrientations(.normal), AllowedOrientations(.leftUp)],
      allowedChosen: true,
      configAllowed: .known(nil), mode: .laptop)
    let restored = RestoredState(commandLine: nil, config: nil, saved: saved, rotate: .always)
    #expect(restored.tracker.policy.lock == .leftUp)
    #expect(restored.tracker.policy.allowed.listText == "normal,left-up")
    #expect(restored.tracker.mode.override == .laptop)
    #expect(restored.tracker.mode.policy == .always)
    #expect(restored.allowedOrigin == .saved(chosen: true))
    #expect(restored.warning == nil)
  }

  @Test("A saved lock the allowed set no longer holds is given up, and the log says so")
  func unlocksOutsideTheAllowedSet() {
    let saved = PersistedState(lock: .bottomUp, allowed: .all, allowedChosen: false)
    let restored = RestoredState(
      commandLine: AllowedOrientations(.normal), config: nil, saved: saved, rotate: .auto)
    #expect(restored.tracker.policy.lock == nil)
    #expect(restored.tracker.policy.allowed.listText == "normal")
    #expect(restored.allowedOrigin == .commandLine)
    #expect(restored.warning == "the saved lock bottom-up is not in the allowed set normal; unlocking")
  }

  @Test("Without a state file: all four orientations, unlocked, no override")
  func noStateFile() {
    let restored = RestoredState(commandLine: nil, config: nil, saved: nil, rotate: .auto)
    #expect(restored.tracker.policy.allowed == .all)
    #expect(restored.tracker.policy.lock == nil)
    #expect(restored.tracker.mode.override == nil)
    #expect(restored.allowedOrigin == .defaults)
    #expect(restored.warning == nil)
  }
}
