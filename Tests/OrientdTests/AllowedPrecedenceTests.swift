import Foundation
import Testing

@Suite("Which allowed set wins: the newest intent", .scratch)
struct AllowedPrecedenceTests {
  private func writeConfig(_ text: String, to path: String) throws {
    try writeConfigFile(text, to: path)
  }

  /// A directory for orientd's socket and state file, with a config file that sets `allowed`.
  private func daemonDirectory(configAllowed: String) throws -> (
    directory: String, config: String, state: String
  ) {
    let directory = try Scratch.current().makeDirectory("daemon")
    try writeConfig("allowed = \(configAllowed)\n", to: directory + "/orientd.conf")
    return (directory, directory + "/orientd.conf", directory + "/state")
  }

  /// Starts orientd on `config` and `directory`'s state file, checks the log names `origin`
  /// for the set, and returns the daemon.
  private func start(config: String, directory: String, expecting allowed: String, from origin: String) throws
    -> ServedDaemon
  {
    let daemon = try ServedDaemon(extra: ["--config", config], directory: directory)
    #expect(
      daemon.process.waitFor("allowed orientations \(allowed): from \(origin)", inStderr: true),
      "\(daemon.process.stderr)")
    let get = try daemon.orientctl("get", "allowed")
    #expect(get.stdout == allowed + "\n", "\(get)")
    return daemon
  }

  @Test(
    "A config value edited after orientctl allow wins at the next start, and doctor says where it came from")
  func editedConfigWinsOverSavedSet() throws {
    let (directory, config, state) = try daemonDirectory(configAllowed: "normal, left-up")

    var daemon = try start(
      config: config, directory: directory, expecting: "normal,left-up", from: "allowed = in \(config):1")
    #expect(try daemon.orientctl("allow", "normal").status == 0)
    #expect(daemon.stop() == 0)

    // The file did not change, so the set chosen with orientctl allow survives the restart.
    daemon = try start(
      config: config, directory: directory, expecting: "normal",
      from: "the saved set in \(state), chosen with orientctl allow")
    #expect(daemon.stop() == 0)

    // The file changed after that set was saved: it is the newer intent.
    try writeConfig("# right-up too\nallowed = normal, right-up\n", to: config)
    daemon = try start(
      config: config, directory: directory, expecting: "normal,right-up",
      from: "allowed = in \(config):2, changed since the saved set (the newer setting wins)")
    let doctor = try daemon.orientctl("doctor")
    #expect(
      doctor.stdout.contains(
        "Allowed: normal, right-up, from allowed = in \(config):2, changed since the saved set"),
      "\(doctor)")
    #expect(daemon.stop() == 0)

    // And it stays the file's own value from then on.
    daemon = try start(
      config: config, directory: directory, expecting: "normal,right-up", from: "allowed = in \(config):2")
    #expect(daemon.stop() == 0)
  }

  @Test("A client that may not control sees where the set came from without any path")
  func originWithoutPathsForOthers() throws {
    let config = try Scratch.current().path("orientd.conf")
    try writeConfig("allowed = normal, left-up\n", to: config)
    let daemon = try servedDaemonOpenToOthers(extra: ["--config", config, "--control-group", "root"])
    let info = try runToCompletion(
      try Unprivileged.command([TestPaths.orientctl, "--socket", daemon.socket, "doctor"]))
    #expect(info.status == 0, "\(info)")
    #expect(info.stdout.contains("Allowed: normal, left-up, from allowed = in the config file.\n"), "\(info)")
    #expect(!info.stdout.contains(config), "\(info)")
    #expect(daemon.stop() == 0)
  }

  @Test("A state file from before the config was recorded keeps its set, and is rewritten with the record")
  func oldStateFileKeepsItsSet() throws {
    let (directory, config, state) = try daemonDirectory(configAllowed: "normal, left-up")
    try "# orientd-state 1\nlock off\nallowed right-up\n".write(
      toFile: state, atomically: true, encoding: .utf8)

    // Nothing says who chose it, so the log does not claim anyone did.
    let daemon = try start(
      config: config, directory: directory, expecting: "right-up", from: "the saved set in \(state)\n")
    #expect(waitForFile(state, toContain: "allowed-chosen yes\nconfig-allowed normal,left-up\n"))
    #expect(daemon.stop() == 0)
  }

  @Test("A set that came from the config or --allowed is not kept once they are gone, at start or on SIGHUP")
  func derivedSetsAreNotKept() throws {
    let (directory, config, state) = try daemonDirectory(configAllowed: "normal, left-up")
    // --allowed wins for its run only.
    var daemon = try ServedDaemon(
      extra: ["--config", config, "--allowed", "bottom-up"], directory: directory)
    #expect(
      daemon.process.waitFor(
        "allowed orientations bottom-up: from --allowed on the command line", inStderr: true))
    #expect(try daemon.orientctl("lock", "bottom-up").status == 0)
    #expect(daemon.stop() == 0)
    #expect(fileText(state).contains("allowed bottom-up\nallowed-chosen no\n"), "\(fileText(state))")
    daemon = try start(
      config: config, directory: directory, expecting: "normal,left-up", from: "allowed = in \(config):1\n")
    #expect(daemon.stop() == 0)

    // The line that chose the set is removed: the default, not a set nobody chose.
    try writeConfig("# no allowed line\n", to: config)
    daemon = try start(
      config: config, directory: directory, expecting: "normal,left-up,bottom-up,right-up",
      from: "the default\n")

    // And on SIGHUP: the line comes back, then goes again.
    try writeConfig("allowed = right-up\n", to: config)
    daemon.process.signal(SIGHUP)
    #expect(
      daemon.process.waitFor("allowed orientations right-up: from allowed = in \(config):1", inStderr: true))
    try writeConfig("\n", to: config)
    daemon.process.signal(SIGHUP)
    #expect(
      daemon.process.waitFor(
        "allowed orientations normal,left-up,bottom-up,right-up: from the default", inStderr: true),
      "\(daemon.process.stderr)")
    #expect(try daemon.orientctl("get", "allowed").stdout == "normal,left-up,bottom-up,right-up\n")
    #expect(daemon.stop() == 0)
  }

  @Test("SIGHUP with an edited allowed = applies it, and the next start keeps it over the saved set")
  func reloadedConfigIsRecorded() throws {
    let (directory, config, state) = try daemonDirectory(configAllowed: "normal, left-up")
    var daemon = try start(
      config: config, directory: directory, expecting: "normal,left-up", from: "allowed = in \(config):1")
    #expect(try daemon.orientctl("allow", "left-up").status == 0)

    try writeConfig("allowed = bottom-up\n", to: config)
    daemon.process.signal(SIGHUP)
    #expect(
      daemon.process.waitFor("allowed orientations bottom-up: from allowed = in \(config):1", inStderr: true),
      "\(daemon.process.stderr)")
    #expect(waitForFile(state, toContain: "config-allowed bottom-up\n"))
    #expect(daemon.stop() == 0)

    daemon = try start(
      config: config, directory: directory, expecting: "bottom-up", from: "allowed = in \(config):1")
    #expect(daemon.stop() == 0)
  }
}
