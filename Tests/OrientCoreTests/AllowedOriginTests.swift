import OrientCore
import Testing

@Suite("The allowed set at start")
struct AllowedOriginTests {
  let normal = AllowedOrientations(.normal)
  let leftUp = AllowedOrientations(.leftUp)
  let both: AllowedOrientations = [AllowedOrientations(.normal), AllowedOrientations(.leftUp)]

  func saved(_ allowed: AllowedOrientations, chosen: Bool?, config: PersistedState.ConfigRecord)
    -> PersistedState
  {
    PersistedState(lock: nil, allowed: allowed, allowedChosen: chosen, configAllowed: config)
  }

  @Test("The command line beats everything")
  func commandLineWins() {
    let choice = AllowedOrigin.choose(
      commandLine: leftUp, config: both, saved: saved(normal, chosen: true, config: .known(both)))
    #expect(choice.allowed == leftUp && choice.origin == .commandLine)
  }

  @Test("A set chosen with orientctl allow survives while the config file is unchanged, or drops its line")
  func chosenSetSurvives() {
    let unchanged = AllowedOrigin.choose(
      commandLine: nil, config: both, saved: saved(normal, chosen: true, config: .known(both)))
    #expect(unchanged.allowed == normal && unchanged.origin == .saved(chosen: true))
    let dropped = AllowedOrigin.choose(
      commandLine: nil, config: nil, saved: saved(normal, chosen: true, config: .known(both)))
    #expect(dropped.allowed == normal && dropped.origin == .saved(chosen: true))
  }

  @Test("A config value edited since the save beats a chosen set")
  func editedConfigWins() {
    let edited = AllowedOrigin.choose(
      commandLine: nil, config: leftUp, saved: saved(normal, chosen: true, config: .known(both)))
    #expect(edited.allowed == leftUp && edited.origin == .configFile(changedSinceSaved: true))
    let added = AllowedOrigin.choose(
      commandLine: nil, config: leftUp, saved: saved(normal, chosen: true, config: .known(nil)))
    #expect(added.allowed == leftUp && added.origin == .configFile(changedSinceSaved: true))
  }

  @Test(
    "A saved set nobody chose gives way to the config as it is now, or to the default once the line is gone")
  func unchosenSetFollowsTheConfig() {
    // Saved while --allowed or the config's line was in force.
    let fromConfig = AllowedOrigin.choose(
      commandLine: nil, config: both, saved: saved(leftUp, chosen: false, config: .known(both)))
    #expect(fromConfig.allowed == both && fromConfig.origin == .configFile(changedSinceSaved: false))
    let removed = AllowedOrigin.choose(
      commandLine: nil, config: nil, saved: saved(both, chosen: false, config: .known(both)))
    #expect(removed.allowed == .all && removed.origin == .defaults)
  }

  @Test("A state file from before the records keeps its set, without claiming who chose it")
  func oldStateFileKeepsItsSet() {
    let choice = AllowedOrigin.choose(
      commandLine: nil, config: both, saved: saved(normal, chosen: nil, config: .unknown))
    #expect(choice.allowed == normal && choice.origin == .saved(chosen: false))
  }

  @Test("A saved set equal to the config value is the config's, and nothing at all is the default")
  func configAndDefault() {
    let same = AllowedOrigin.choose(
      commandLine: nil, config: both, saved: saved(both, chosen: true, config: .known(both)))
    #expect(same.allowed == both && same.origin == .configFile(changedSinceSaved: false))
    let fresh = AllowedOrigin.choose(commandLine: nil, config: both, saved: nil)
    #expect(fresh.allowed == both && fresh.origin == .configFile(changedSinceSaved: false))
    let none = AllowedOrigin.choose(commandLine: nil, config: nil, saved: nil)
    #expect(none.allowed == .all && none.origin == .defaults)
  }

  @Test(
    "On reload an edited line wins, a removed one gives the default only where it chose, and --allowed pins")
  func reload() {
    let fromConfig = AllowedOrigin.configFile(changedSinceSaved: false)
    let edited = fromConfig.reloaded(config: leftUp, previousConfig: both, commandLineGiven: false)
    #expect(edited?.allowed == leftUp && edited?.origin == .configFile(changedSinceSaved: true))
    let removed = fromConfig.reloaded(config: nil, previousConfig: both, commandLineGiven: false)
    #expect(removed?.allowed == .all && removed?.origin == .defaults)
    #expect(AllowedOrigin.control.reloaded(config: nil, previousConfig: both, commandLineGiven: false) == nil)
    #expect(fromConfig.reloaded(config: both, previousConfig: both, commandLineGiven: false) == nil)
    #expect(
      AllowedOrigin.commandLine.reloaded(config: leftUp, previousConfig: both, commandLineGiven: true) == nil)
  }

  @Test("The description names files only when it may, and claims orientctl allow only when recorded")
  func descriptions() {
    #expect(
      AllowedOrigin.saved(chosen: true).describe(config: nil, state: "/s")
        == "the saved set in /s, chosen with orientctl allow")
    #expect(AllowedOrigin.saved(chosen: false).describe(config: nil, state: nil) == "the saved set")
    #expect(
      AllowedOrigin.configFile(changedSinceSaved: true).describe(config: "/c:3", state: nil)
        == "allowed = in /c:3, changed since the saved set (the newer setting wins)")
  }
}
