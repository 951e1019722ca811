import OrientCore
import Testing

@Suite("The allowed set at start")
struct AllowedOriginTests {
  let normal = AllowedOrientations(.normal)
  let leftUp = AllowedOrientations(.leftUp)
  let both: AllowedOrientations = [AllowedOrientations(.normal), AllowedOrientations(.leftUp)]

  func saved(_ allowed: AllowedOrientations, config: PersistedState.ConfigRecord) -> PersistedState {
    PersistedState(lock: nil, allowed: allowed, configAllowed: config)
  }

  @Test("The command line beats everything")
  func commandLineWins() {
    let choice = AllowedOrigin.choose(
      commandLine: leftUp, config: both, saved: saved(normal, config: .known(normal)))
    #expect(choice.allowed == leftUp && choice.origin == .commandLine)
  }

  @Test("A set chosen with orientctl allow survives while the config file is unchanged")
  func savedSetSurvives() {
    let choice = AllowedOrigin.choose(
      commandLine: nil, config: both, saved: saved(normal, config: .known(both)))
    #expect(choice.allowed == normal && choice.origin == .saved)
  }

  @Test("A config value edited since the save beats the saved set")
  func editedConfigWins() {
    let choice = AllowedOrigin.choose(
      commandLine: nil, config: leftUp, saved: saved(normal, config: .known(both)))
    #expect(choice.allowed == leftUp && choice.origin == .configFile(changedSinceSaved: true))
    let added = AllowedOrigin.choose(
      commandLine: nil, config: leftUp, saved: saved(normal, config: .known(nil)))
    #expect(added.allowed == leftUp && added.origin == .configFile(changedSinceSaved: true))
  }

  @Test("A config file that drops its allowed line leaves the saved set")
  func droppedLineKeepsSaved() {
    let choice = AllowedOrigin.choose(
      commandLine: nil, config: nil, saved: saved(normal, config: .known(both)))
    #expect(choice.allowed == normal && choice.origin == .saved)
  }

  @Test("A state file without the record keeps its set")
  func unknownRecordKeepsSaved() {
    let choice = AllowedOrigin.choose(commandLine: nil, config: both, saved: saved(normal, config: .unknown))
    #expect(choice.allowed == normal && choice.origin == .saved)
  }

  @Test("A saved set equal to the config value is the config's, and nothing at all is the default")
  func configAndDefault() {
    let same = AllowedOrigin.choose(commandLine: nil, config: both, saved: saved(both, config: .known(both)))
    #expect(same.allowed == both && same.origin == .configFile(changedSinceSaved: false))
    let fresh = AllowedOrigin.choose(commandLine: nil, config: both, saved: nil)
    #expect(fresh.allowed == both && fresh.origin == .configFile(changedSinceSaved: false))
    let none = AllowedOrigin.choose(commandLine: nil, config: nil, saved: nil)
    #expect(none.allowed == .all && none.origin == .defaults)
  }

  @Test("The description names files only when it may")
  func descriptions() {
    #expect(
      AllowedOrigin.saved.describe(config: nil, state: "/s")
        == "the saved set in /s, chosen with orientctl allow")
    #expect(
      AllowedOrigin.saved.describe(config: nil, state: nil) == "the saved set, chosen with orientctl allow")
    #expect(
      AllowedOrigin.configFile(changedSinceSaved: true).describe(config: "/c:3", state: nil)
        == "allowed = in /c:3, changed since the saved set (the newer setting wins)")
  }
}
