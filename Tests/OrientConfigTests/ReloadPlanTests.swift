import OrientCore
import Testing

@testable import OrientConfig

/// The options a config file's text gives, with `arguments` on the command line over it.
private func options(file text: String, arguments: [String] = []) throws -> DaemonOptions {
  let entries = try ConfigFile.parse(text, path: "/etc/orientd/orientd.conf")
  return try DaemonOptions.resolve(commandLine: try CommandLineArguments.parse(arguments), config: entries)
}

@Suite("What a reload of the config file applies")
struct ReloadPlanTests {
  @Test("Classifier tunables, the allowed set, hooks and verbosity apply at once, and where they were set")
  func liveSettingsApply() throws {
    let running = try options(file: "threshold = 0.6\n")
    let loaded = try options(
      file: """
        threshold = 0.7
        hysteresis = 0.2
        shake-tolerance = 0.3
        settle = 100
        allowed = normal,left-up
        suggest = no
        suggest-hold = 300
        suggest-timeout = 8
        hook = echo turned
        hooks-dir = /etc/orientd/hooks.d
        hook-timeout = 2
        panel-orientation = right-up
        verbose = yes
        """)
    let plan = ReloadPlan(running: running, loaded: loaded)
    // still too: a settle set alone turns the stillness rule off.
    #expect(
      plan.applied == [
        "threshold", "hysteresis", "shake-tolerance", "settle", "still", "allowed", "suggest", "suggest-hold",
        "suggest-timeout", "hook", "hooks-dir", "hook-timeout", "panel-orientation",
        "verbose",
      ])
    #expect(plan.needRestart.isEmpty)
    #expect(plan.options.settings == loaded.settings)
    #expect(plan.options.allowed == loaded.allowed)
    #expect(plan.options.configAllowed?.listText == "normal,left-up")
    #expect(plan.options.hooks == ["echo turned"])
    #expect(plan.options.hooksDirectory == "/etc/orientd/hooks.d")
    #expect(plan.options.hookTimeout == .seconds(2))
    #expect(plan.options.verbose)
    #expect(plan.options.origins["threshold"] == "/etc/orientd/orientd.conf:1")
    #expect(plan.options.origins["allowed"] == "/etc/orientd/orientd.conf:5")
  }

  @Test("Settings that need a restart are named, in the table's order, and keep their running value")
  func restartSettingsKeepTheirValue() throws {
    let running = try options(file: "interval = 200\n")
    let loaded = try options(
      file: """
        dbus = session
        interval = 50
        socket = /tmp/other.sock
        max-clients = 10
        idle-timeout = 5
        rotate = always
        tablet-switch = no
        """)
    let plan = ReloadPlan(running: running, loaded: loaded)
    #expect(
      plan.needRestart == [
        "interval", "socket", "max-clients", "idle-timeout", "rotate", "tablet-switch", "dbus",
      ])
    #expect(plan.applied.isEmpty)
    #expect(plan.options == running)
  }

  @Test("A setting given on the command line stays what the command line says, whatever the file says")
  func commandLineWins() throws {
    let arguments = ["--threshold", "0.8", "--interval", "100"]
    let running = try options(file: "", arguments: arguments)
    let loaded = try options(file: "threshold = 0.5\ninterval = 300\n", arguments: arguments)
    let plan = ReloadPlan(running: running, loaded: loaded)
    #expect(plan.applied.isEmpty)
    #expect(plan.needRestart.isEmpty)
    #expect(plan.options.settings.threshold == 0.8)
  }

  @Test("An unchanged file changes nothing, and a live line that moved moves its origin")
  func unchangedFile() throws {
    let running = try options(file: "allowed = normal\n")
    let loaded = try options(file: "# a comment first\nallowed = normal\n")
    let plan = ReloadPlan(running: running, loaded: loaded)
    #expect(plan.applied.isEmpty)
    #expect(plan.needRestart.isEmpty)
    #expect(plan.options.origins["allowed"] == "/etc/orientd/orientd.conf:2")
  }

  @Test("Every setting of the table says what a reload does with it, and changing it is seen")
  func everySettingIsClassified() throws {
    let defaults = DaemonOptions()
    for spec in OptionTable.settings {
      let field = try #require(spec.field, "--\(spec.name) has no field")
      // A value each setting accepts and that is not its default.
      var changed = defaults
      try changed.set(spec.name, to: Self.otherValue[spec.name] ?? "1")
      // The file's own allowed set is what a reload compares; reading a file sets it.
      if spec.name == "allowed" { changed.configAllowed = changed.allowed }
      #expect(field.differs(defaults, changed), "changing --\(spec.name) is not seen by a reload")
      var copied = defaults
      field.copy(&copied, changed)
      #expect(!field.differs(copied, changed), "a reload does not copy --\(spec.name)")
    }
    #expect(
      ReloadPlan.liveSettings == [
        "threshold", "hysteresis", "shake-tolerance", "settle", "still", "flat-grace", "swing-grace",
        "shake-grace", "overhead-lock", "allowed", "suggest", "suggest-hold", "suggest-timeout", "hook",
        "hooks-dir", "hook-timeout", "panel-orientation",
        "verbose",
      ])
  }

  /// A value other than the default for each setting whose default is 1 or that takes no number.
  private static let otherValue: [String: String] = [
    "uri": "ip:127.0.0.1", "device": "iio:device3", "mode": "poll",
    "mount-matrix": "0, 1, 0; 1, 0, 0; 0, 0, 1",
    "record": "/tmp/t.trace", "threshold": "0.7", "hysteresis": "0.05", "shake-tolerance": "0.3",
    "settle": "5", "suggest": "no",
    "allowed": "normal", "socket": "/tmp/o.sock", "socket-mode": "0600", "control-group": "adm",
    "idle-timeout": "2", "state": "/tmp/state", "hook": "true", "hooks-dir": "/tmp", "hook-timeout": "2",
    "panel-orientation": "left-up", "rotate": "always", "tablet-switch": "no", "dbus": "session",
    "dbus-orientation": "screen", "verbose": "yes", "overhead-lock": "no",
  ]
}
