import OrientCore
import Testing

@Suite("The state file format")
struct PersistedStateTests {
  @Test("The state file round-trips")
  func roundTrip() throws {
    let state = PersistedState(lock: .leftUp, allowed: try AllowedOrientations.parse("left-up,normal"))
    #expect(try PersistedState.parse(state.fileText) == state)
    #expect(state.fileText == "# orientd-state 1\nlock left-up\nallowed normal,left-up\n")
    let recorded = PersistedState(
      lock: nil, allowed: .all, configAllowed: .known(AllowedOrientations(.normal)))
    #expect(
      recorded.fileText
        == "# orientd-state 1\nlock off\nallowed normal,left-up,bottom-up,right-up\nconfig-allowed normal\n")
    #expect(try PersistedState.parse(recorded.fileText) == recorded)
    let none = PersistedState(lock: nil, allowed: .all, allowedChosen: false, configAllowed: .known(nil))
    #expect(try PersistedState.parse(none.fileText) == none)
    #expect(none.fileText.hasSuffix("\nallowed-chosen no\nconfig-allowed none\n"))
  }

  @Test(
    "Corrupt state files are rejected",
    arguments: [
      "", "garbage", "# orientd-state 1\nlock sideways\nallowed normal\n", "# orientd-state 1\nlock off\n",
      "# orientd-state 1\nlock off\nallowed normal\nlock off\n", "\u{0}\u{1}",
      "# orientd-state 1\nlock off\nallowed normal\nconfig-allowed sideways\n",
      "# orientd-state 1\nlock off\nallowed normal\nallowed-chosen maybe\n",
    ])
  func corrupt(text: String) {
    #expect(throws: ValueError.self) { try PersistedState.parse(text) }
  }
}
