import OrientCore
import Testing

@testable import OrientConfig

@Suite("How config values are read: quotes, comments, keys given twice")
struct ConfigValueReadingTests {
  func value(_ line: String) throws -> String {
    try #require(try ConfigFile.parse(line, path: "c.conf").first).value
  }

  @Test("A value wholly in quotes is taken without them, blanks and # included")
  func wholeQuotes() throws {
    #expect(try value(#"hook = "echo hi""#) == "echo hi")
    #expect(try value("hook = 'echo hi'") == "echo hi")
    #expect(try value(#"hook = "  echo #1  "  # a comment"#) == "  echo #1  ")
    #expect(try value(#"hook = 'say "hi"'"#) == #"say "hi""#)
  }

  @Test("A value that only starts with a quote keeps its quotes; unquoted values are as before")
  func partialQuotes() throws {
    #expect(try value(#"hook = "my hook" --now # comment"#) == #""my hook" --now"#)
    #expect(try value("hook = echo a#b # comment") == "echo a#b")
    #expect(try value("threshold=0.7") == "0.7")
  }

  @Test("A quote that is not closed, or quotes around nothing, are refused naming the line and key")
  func badQuotes() {
    #expect(throws: Failure.config(#"c.conf:1: hook: the value's " is not closed"#)) {
      try ConfigFile.parse(#"hook = "echo hi"#, path: "c.conf")
    }
    #expect(throws: Failure.config("c.conf:2: hook: the value is empty")) {
      try ConfigFile.parse("\nhook = ''", path: "c.conf")
    }
  }

  @Test("A key given twice is a warning naming both lines, the later one winning; hook lines add up")
  func repeatedKeys() throws {
    let entries = try ConfigFile.parse(
      "settle = 10\nhook = a\nhook = b\nsettle = 20\nsettle = 30\n", path: "c.conf")
    #expect(
      ConfigFile.repeatedKeyWarnings(entries) == [
        "c.conf:4: settle is given again (first at c.conf:1); c.conf:4 wins",
        "c.conf:5: settle is given again (first at c.conf:1); c.conf:5 wins",
      ])
    let options = try DaemonOptions(config: entries)
    #expect(options.settings.settle == .milliseconds(30))
    #expect(options.hooks == ["a", "b"])
  }
}

@Suite("Where a user's orientd keeps its socket and state")
struct UserDirectoryTests {
  @Test("Unset by file and command line, the socket and state go into the runtime directory")
  func defaultsMove() throws {
    var options = DaemonOptions()
    options.placeInUserDirectory(runtime: "/run/user/1000")
    #expect(options.socketPath == "/run/user/1000/orientd/orientd.sock")
    #expect(options.statePath == "/run/user/1000/orientd/state")
    #expect(options.userDirectory == "/run/user/1000/orientd")
  }

  @Test("What the file or the command line set stays")
  func givenPathsStay() throws {
    var options = try DaemonOptions(config: [ConfigEntry(key: "socket", value: "/tmp/s", location: "c:1")])
    try options.overlay(try CommandLineArguments.parse(["--state", "/tmp/st"]))
    options.placeInUserDirectory(runtime: "/run/user/1000/")
    #expect(options.socketPath == "/tmp/s")
    #expect(options.statePath == "/tmp/st")
    #expect(options.userDirectory == nil)
  }
}

@Suite("orientd's help text")
struct DaemonHelpTests {
  @Test("Every line fits 80 columns, and each option still has its one line")
  func fitsEightyColumns() {
    let lines = DaemonHelp.text.split(separator: "\n")
    for line in lines { #expect(line.count <= 80, "\(line)") }
    for option in OptionTable.all {
      #expect(lines.filter { $0.hasPrefix("  --\(option.name) ") || $0 == "  --\(option.name)" }.count == 1)
    }
  }

  @Test("Wrapping breaks between words and keeps a word longer than the width whole")
  func wrapping() {
    #expect(DaemonHelp.wrap("a bb ccc dddd", width: 6) == ["a bb", "ccc", "dddd"])
    #expect(DaemonHelp.wrap("abcdefgh ij", width: 4) == ["abcdefgh", "ij"])
  }

  @Test("The completion spec offers every option, with lower-case placeholders as choices")
  func completionSpec() {
    let spec = DaemonHelp.completionSpec
    #expect(spec.options.map(\.name) == OptionTable.all.map(\.name))
    #expect(spec.options.first { $0.name == "mode" }?.value == .choices(["auto", "poll", "buffer"]))
    #expect(spec.options.first { $0.name == "socket" }?.value == .file)
    #expect(spec.options.first { $0.name == "hooks-dir" }?.value == .directory)
    #expect(spec.options.first { $0.name == "device" }?.value == .text(hint: "ID|NAME|LABEL"))
    #expect(spec.options.first { $0.name == "help" }?.short == "h")
  }
}
