import OrientConfig
import Testing

@testable import OrientCore

@Suite("The config file")
struct ConfigFileTests {
  @Test("key = value lines with comments parse, and apply like the long options")
  func parsesAndApplies() throws {
    let text = """
      # orientd.conf
      threshold = 0.7   # a little stricter
      allowed = normal, left-up, right-up

      hook = xrandr --output eDP-1 --rotate "$ORIENTD_XRANDR"
      hook = echo a#b # a comment
      verbose = yes
      hook-timeout = 0.5
      socket-mode=0660
      """
    let entries = try ConfigFile.parse(text, path: "/etc/orientd/orientd.conf")
    #expect(
      entries.map(\.key) == [
        "threshold", "allowed", "hook", "hook", "verbose", "hook-timeout", "socket-mode",
      ])
    #expect(entries[0].location == "/etc/orientd/orientd.conf:2")
    #expect(entries[3].value == "echo a#b")
    let options = try DaemonOptions(config: entries)
    #expect(options.settings.threshold == 0.7)
    #expect(options.allowed?.listText == "normal,left-up,right-up")
    #expect(options.hooks.count == 2)
    #expect(options.verbose)
    #expect(options.hookTimeout == .milliseconds(500))
    #expect(options.socketMode == 0o660)
  }

  @Test(
    "Mistakes name file:line and the key, and suggest the closest valid key",
    arguments: [
      ("treshold = 0.5", "c.conf:1: unknown key 'treshold' (did you mean 'threshold'?)"),
      ("settle-time = 100", "c.conf:1: unknown key 'settle-time' (did you mean 'settle'?)"),
      ("just words", "c.conf:1: expected 'key = value'"),
      ("= 3", "c.conf:1: a line starts with '='"),
      ("threshold =", "c.conf:1: threshold: the value is empty"),
      ("dump = yes", "c.conf:1: unknown key 'dump'"),
    ])
  func keyMistakes(text: String, expected: String) {
    #expect {
      try ConfigFile.parse(text, path: "c.conf")
    } throws: { error in
      (error as? Failure)?.exitCode == .config && (error as? Failure)?.message.hasPrefix(expected) == true
    }
  }

  @Test(
    "Bad values name file:line and the key",
    arguments: [
      ("interval = soon", "c.conf:2: interval: expected whole milliseconds"),
      ("allowed = sideways", "c.conf:2: allowed: unknown screen orientation 'sideways'"),
      ("mount-matrix = 1, 0", "c.conf:2: mount-matrix: expected 3 rows"),
      ("verbose = maybe", "c.conf:2: verbose: expected yes or no"),
      ("mode = turbo", "c.conf:2: mode: expected auto, poll or buffer"),
      ("hook-timeout = 0", "c.conf:2: hook-timeout: expected seconds"),
      ("threshold = 5", "c.conf:2: threshold: expected a number of g above 0 and at most 1, got '5'"),
      ("threshold = 0", "c.conf:2: threshold: expected a number of g above 0 and at most 1"),
      ("hysteresis = 2", "c.conf:2: hysteresis: expected a number of g from 0 and below 1, got '2'"),
      ("shake-tolerance = 9", "c.conf:2: shake-tolerance: expected a number of g from 0 to 4, got '9'"),
      ("shake-tolerance = -1", "c.conf:2: shake-tolerance: expected a number of g from 0 to 4"),
      (
        "hysteresis = 0.7",
        "c.conf:2: hysteresis: the hysteresis must be below the threshold, got hysteresis 0.7 g (from c.conf:2)"
          + " and threshold 0.6 g (the default)"
      ),
    ])
  func valueMistakes(line: String, expected: String) throws {
    let entries = try ConfigFile.parse("# first\n" + line, path: "c.conf")
    #expect {
      try DaemonOptions(config: entries)
    } throws: { error in
      (error as? Failure)?.exitCode == .config && (error as? Failure)?.message.hasPrefix(expected) == true
    }
  }

  @Test("The command line overrides the file, and command-line hooks replace the file's")
  func commandLineOverrides() throws {
    let entries = try ConfigFile.parse("threshold = 0.7\ninterval = 50\nhook = from-file\n", path: "c.conf")
    let commandLine = try CommandLineArguments.parse(["--threshold", "0.8", "--hook", "from-cli"])
    let options = try DaemonOptions.resolve(commandLine: commandLine, config: entries)
    #expect(options.settings.threshold == 0.8)
    #expect(options.interval == .milliseconds(50))
    #expect(options.hooks == ["from-cli"])
    let keep = try DaemonOptions.resolve(commandLine: try CommandLineArguments.parse([]), config: entries)
    #expect(keep.hooks == ["from-file"])
  }

  @Test("--config names the file; the keys are exactly the settings' long options")
  func configOption() throws {
    #expect(try CommandLineArguments.parse(["--config", "/tmp/x.conf"]).configPath == "/tmp/x.conf")
    #expect(ConfigFile.keys.contains("shake-tolerance"))
    #expect(!ConfigFile.keys.contains("config"))
  }

  @Test("A threshold and hysteresis that clash in the file name the line that set the later key")
  func thresholdClash() throws {
    let entries = try ConfigFile.parse("hysteresis = 0.3\n\nthreshold = 0.2\n", path: "c.conf")
    #expect {
      try DaemonOptions(config: entries)
    } throws: { error in
      (error as? Failure)?.exitCode == .config
        && (error as? Failure)?.message.hasPrefix("c.conf:1: hysteresis: the hysteresis must be below")
          == true
        && (error as? Failure)?.message.contains("threshold 0.2 g (from c.conf:3)") == true
    }
  }

  @Test("A file's threshold beyond a command-line hysteresis is the command line's error, naming the option")
  func thresholdClashWithCommandLine() throws {
    let entries = try ConfigFile.parse("threshold = 0.3\n", path: "c.conf")
    #expect {
      try DaemonOptions.resolve(
        commandLine: try CommandLineArguments.parse(["--hysteresis", "0.5"]), config: entries)
    } throws: { error in
      (error as? Failure)?.exitCode == .usage
        && (error as? Failure)?.message.hasPrefix("--hysteresis: the hysteresis must be below") == true
        && (error as? Failure)?.message.contains("threshold 0.3 g (from c.conf:1)") == true
    }
  }

  @Test("A UTF-8 byte order mark at the start of the file is not part of the first key")
  func byteOrderMark() throws {
    let entries = try ConfigFile.parse("\u{FEFF}threshold = 0.7\n", path: "c.conf")
    #expect(entries == [ConfigEntry(key: "threshold", value: "0.7", location: "c.conf:1")])
  }

  @Test("A NUL byte in a line is refused naming file:line, never passed on half-read")
  func nulRefused() throws {
    #expect {
      try ConfigFile.parse("threshold = 0.7\nhook = echo shown\u{0}; echo hidden\n", path: "c.conf")
    } throws: { error in
      (error as? Failure)?.message == "c.conf:2: the line holds a NUL byte"
    }
  }

  @Test("CRLF line endings end lines as LF does: no setting is lost behind a comment, no CR in a value")
  func crlfLineEndings() throws {
    let entries = try ConfigFile.parse("# my settings\r\nthreshold = 0.9\r\nsettle = 0\r\n", path: "c.conf")
    #expect(
      entries == [
        ConfigEntry(key: "threshold", value: "0.9", location: "c.conf:2"),
        ConfigEntry(key: "settle", value: "0", location: "c.conf:3"),
      ])
    // Lines keep their numbers when endings are mixed, and a mistake names its own line.
    #expect {
      try ConfigFile.parse("threshold = 0.9\r\n\ntreshold = 0.5\r\n", path: "c.conf")
    } throws: { error in
      (error as? Failure)?.message == "c.conf:3: unknown key 'treshold' (did you mean 'threshold'?)"
    }
  }
}
