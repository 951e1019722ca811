import OrientConfig
import OrientCore
import Testing

@Suite("Parsing orientd's command line")
struct DaemonOptionsTests {
  @Test("No arguments give the defaults: local IIO, 200 ms polling, default tunables")
  func defaults() throws {
    let options = try parseCommandLine([])
    #expect(options.action == .run)
    #expect(options.source == .iio)
    #expect(options.interval == .milliseconds(200))
    #expect(options.settings == .defaults)
    #expect(options.allowed == nil)
    #expect(options.servesSocket)
    #expect(options.socketPath == "/run/orientd/orientd.sock")
    #expect(options.socketMode == 0o666)
    #expect(options.maxClients == 256)
    #expect(options.statePath == "/var/lib/orientd/state")
    #expect(!options.dump)
  }

  @Test("Polling rests at 1000 ms unless told otherwise; --resting-interval and --still are read")
  func restingAndStill() throws {
    let defaults = try parseCommandLine([])
    #expect(defaults.restingInterval == .milliseconds(1000))
    #expect(defaults.settings.still == .milliseconds(40))
    let given = try parseCommandLine(["--resting-interval", "200", "--still", "60"])
    #expect(given.restingInterval == .milliseconds(200))
    #expect(given.settings.still == .milliseconds(60))
    #expect(try parseCommandLine(["--still", "off"]).settings.still == nil)
    #expect(throws: Failure.self) { try parseCommandLine(["--still", "soon"]) }
    #expect(throws: Failure.self) { try parseCommandLine(["--demo", "--resting-interval", "500"]) }
  }

  @Test("A settle time chosen without a still time keeps its meaning: only the settle time decides")
  func chosenSettleKeepsItsMeaning() throws {
    #expect(try parseCommandLine(["--settle", "1000"]).settings.still == nil)
    #expect(try parseCommandLine(["--settle", "1000", "--still", "40"]).settings.still == .milliseconds(40))
    let entries = try ConfigFile.parse("settle = 300\n", path: "orientd.conf")
    #expect(
      try DaemonOptions.resolve(commandLine: CommandLineArguments.parse([]), config: entries).settings.still
        == nil)
    let both = try ConfigFile.parse("settle = 300\nstill = 50\n", path: "orientd.conf")
    #expect(
      try DaemonOptions.resolve(commandLine: CommandLineArguments.parse([]), config: both).settings.still
        == .milliseconds(50))
  }

  @Test("Every option takes its value separately or after '='")
  func values() throws {
    let options = try parseCommandLine([
      "--dump", "--uri", "ip:127.0.0.1", "--device=accel_3d", "--interval", "50", "--settle=0",
      "--threshold", "0.7", "--hysteresis", "0.05", "--shake-tolerance", "0.3",
      "--allowed", "normal,left-up", "--mount-matrix", "0, 1, 0; -1, 0, 0; 0, 0, 1",
      "--record", "out.trace", "--verbose",
    ])
    #expect(options.dump)
    #expect(options.uri == "ip:127.0.0.1")
    #expect(options.device == "accel_3d")
    #expect(options.interval == .milliseconds(50))
    #expect(options.settings.settle == .zero)
    #expect(options.settings.threshold == 0.7)
    #expect(options.settings.hysteresis == 0.05)
    #expect(options.settings.shakeTolerance == 0.3)
    #expect(options.allowed?.listText == "normal,left-up")
    #expect(options.mountMatrix?.row1 == Vector3(-1, 0, 0))
    #expect(options.recordPath == "out.trace")
    #expect(options.verbose)
  }

  @Test("Socket options set the path, mode, group, client limit and state file")
  func socketOptions() throws {
    let options = try parseCommandLine([
      "--socket", "/tmp/o.sock", "--socket-mode", "0660", "--control-group", "video", "--max-clients", "5",
      "--state", "/tmp/state",
    ])
    #expect(options.socketPath == "/tmp/o.sock")
    #expect(options.socketMode == 0o660)
    #expect(options.controlGroup == "video")
    #expect(options.maxClients == 5)
    #expect(try parseCommandLine(["--mode", "buffer"]).captureMode == .buffer)
    #expect(try parseCommandLine([]).captureMode == .auto)
    #expect(options.statePath == "/tmp/state")
  }

  @Test("--dump runs without the socket or state file unless they are asked for")
  func dumpWithoutSocket() throws {
    let dump = try parseCommandLine(["--dump"])
    #expect(!dump.servesSocket)
    #expect(!dump.persistsState)
    let both = try parseCommandLine(["--dump", "--socket", "/tmp/x.sock"])
    #expect(both.servesSocket)
    #expect(both.persistsState)
  }

  @Test("Sources and actions are recognised")
  func sources() throws {
    #expect(try parseCommandLine(["--replay", "a.trace"]).source == .replay(path: "a.trace"))
    #expect(try parseCommandLine(["--demo"]).source == .demo)
    #expect(try parseCommandLine(["--list"]).action == .list)
    #expect(try parseCommandLine(["--help"]).action == .help)
    #expect(try parseCommandLine(["--version"]).action == .version)
  }

  @Test(
    "Mistakes are errors that name the option",
    arguments: [
      (["--bogus"], "unknown option '--bogus'"),
      (["--interval"], "--interval needs a value"),
      (["--interval", "0"], "--interval: expected whole milliseconds"),
      (["--interval", "fast"], "--interval: expected whole milliseconds"),
      (["--settle", "-5"], "--settle: expected whole milliseconds"),
      (["--threshold", "abc"], "--threshold: expected a number of g above 0 and at most 1, got 'abc'"),
      (["--threshold", "1.5"], "--threshold: expected a number of g above 0 and at most 1, got '1.5'"),
      (["--hysteresis", "0.7"], "--hysteresis: the hysteresis must be below the threshold"),
      (["--threshold", "0.05"], "--threshold: the hysteresis must be below the threshold"),
      (["--shake-tolerance", "5"], "--shake-tolerance: expected a number of g from 0 to 4"),
      (["--allowed", "up"], "--allowed: unknown screen orientation 'up'"),
      (["--mount-matrix", "1,0,0"], "--mount-matrix: expected 3 rows"),
      (["--demo", "--replay", "x"], "--demo and --replay cannot be combined"),
      (["--demo", "--demo"], "--demo given twice"),
      (["--config", "a", "--default-config", "b"], "--config and --default-config cannot be combined"),
      (["--replay", "x", "--replay=y"], "--replay given twice"),
      (["--demo", "--mode", "poll"], "--mode applies to an IIO sensor and cannot be combined with --demo"),
      (
        ["--interval=50", "--demo"], "--interval applies to an IIO sensor and cannot be combined with --demo"
      ),
      (
        ["--replay", "x", "--interval", "50"],
        "--interval applies to an IIO sensor and cannot be combined with --replay"
      ),
      (["--list", "--demo"], "--list lists IIO sensors"),
      (["--dump=yes"], "--dump takes no value"),
      (["stray"], "unexpected argument 'stray'"),
      (["--socket-mode", "999"], "--socket-mode: expected an octal mode"),
      (["--socket-mode", "rw"], "--socket-mode: expected an octal mode"),
      (["--max-clients", "0"], "--max-clients: expected a whole number"),
      (["--socket", ""], "--socket: needs a path"),
      (["--treshold", "0.5"], "unknown option '--treshold' (did you mean --threshold?)"),
      (["--mode", "fast"], "--mode: expected auto, poll or buffer"),
    ])
  func mistakes(arguments: [String], expected: String) {
    #expect {
      try parseCommandLine(arguments)
    } throws: { error in
      (error as? Failure)?.exitCode == .usage && (error as? Failure)?.message.hasPrefix(expected) == true
    }
  }
}
