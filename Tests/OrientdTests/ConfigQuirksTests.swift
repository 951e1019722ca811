import Foundation
import Testing

/// How orientd.conf's values are read: keys given twice, quotes, `#`.
@Suite("Config file quirks: repeated keys and quoted values", .scratch)
struct ConfigQuirksTests {
  func config(_ text: String) throws -> String {
    let path = try Scratch.current().makeDirectory() + "/orientd.conf"
    try writeConfigFile(text, to: path)
    return path
  }

  func replay(config path: String) throws -> (status: Int32, stdout: String, stderr: String) {
    var trace = TraceBuilder(stepMilliseconds: 100)
    trace.hold(1, 0, 0, count: 5)
    return try runToCompletion([TestPaths.orientd, "--config", path, "--dump", "--replay", try trace.write()])
  }

  @Test("A key given twice warns naming both lines; the later one wins")
  func repeatedKeyWarns() throws {
    let path = try config("settle = 1000\n# a comment\nallowed = normal, left-up\nsettle = 0\n")
    let result = try replay(config: path)
    #expect(result.status == 0, "\(result.stderr)")
    #expect(
      result.stderr.contains(
        "warning: \(path):4: settle is given again (first at \(path):1); \(path):4 wins"),
      "\(result.stderr)")
    #expect(result.stdout.contains("device left-up"), "settle 0 from line 4 applies: \(result.stdout)")
  }

  @Test("`hook` and `allowed` may repeat as lists do not: hook lines add up without a warning")
  func repeatedHooksAddUp() throws {
    let log = try Scratch.current().path("hooks.log")
    let path = try config("hook = echo one >> \(log)\nhook = echo two >> \(log)\n")
    let daemon = try ServedDaemon(holding: (1, 0, 0), extra: ["--config", path])
    #expect(waitForFile(log, toContain: "two"))
    #expect(fileText(log).contains("one"))
    #expect(daemon.stop() == 0)
    #expect(!daemon.process.stderr.contains("given again"), "\(daemon.process.stderr)")
  }

  @Test(
    "A value in double or single quotes is taken without them; # inside quotes is not a comment",
    arguments: [
      ("\"", #"printf '%s #1\n' $ORIENTD_ORIENTATION"#), ("'", #"printf "%s #1\n" $ORIENTD_ORIENTATION"#),
    ])
  func quotedValues(quote: String, command: String) throws {
    let log = try Scratch.current().path("quoted.log")
    let path = try config(
      "hook = \(quote)\(command) >> \(log)\(quote)  # the comment\nthreshold = \(quote)0.7\(quote)\n")
    let daemon = try ServedDaemon(holding: (1, 0, 0), extra: ["--config", path])
    #expect(waitForFile(log, toContain: "left-up #1"), "\(daemon.process.stderr)")
    #expect(try daemon.orientctl("doctor").stdout.contains("threshold 0.7 g"))
    #expect(daemon.stop() == 0)
  }

  @Test("doctor shows a hook's escape sequence as text, never sends it to the terminal")
  func doctorEscapesControlCharacters() throws {
    let path = try config("hook = echo \u{1B}[2J\u{1B}]0;owned\u{7}\n")
    let daemon = try ServedDaemon(holding: (1, 0, 0), extra: ["--config", path])
    let doctor = try daemon.orientctl("doctor")
    #expect(doctor.status == 0, "\(doctor.stderr)")
    #expect(doctor.stdout.contains("echo \\x1b[2J\\x1b]0;owned\\x07"), "\(doctor.stdout)")
    #expect(!doctor.stdout.unicodeScalars.contains { $0 == "\u{1B}" || $0 == "\u{7}" })
    #expect(daemon.stop() == 0)
  }

  @Test("A file saved with CRLF line endings applies every setting, the first line a comment")
  func crlfFileApplies() throws {
    let path = try config("# my settings\r\nthreshold = 0.9\r\nsettle = 0\r\n")
    let daemon = try ServedDaemon(holding: (1, 0, 0), extra: ["--config", path])
    let doctor = try daemon.orientctl("doctor").stdout
    #expect(doctor.contains("threshold 0.9 g"), "\(doctor)")
    #expect(doctor.contains("settle 0 ms"), "\(doctor)")
    #expect(daemon.stop() == 0)
  }

  @Test("A value that only starts with a quote, as a shell command may, is taken as it is")
  func shellQuotesKept() throws {
    let log = try Scratch.current().path("shell.log")
    let path = try config("hook = \"echo\" \"$ORIENTD_ORIENTATION\" >> \(log)\n")
    let daemon = try ServedDaemon(holding: (1, 0, 0), extra: ["--config", path])
    #expect(waitForFile(log, toContain: "left-up"), "\(daemon.process.stderr)")
    #expect(daemon.stop() == 0)
  }

  @Test("A quote that is not closed is refused naming the line")
  func unclosedQuoteRefused() throws {
    let path = try config("threshold = 0.5\nhook = \"echo hi\n")
    let result = try replay(config: path)
    #expect(result.status == 78)
    #expect(result.stderr.contains("\(path):2: hook: the value's \" is not closed"), "\(result.stderr)")
  }

  @Test("The shipped config and orientd.conf(5) say how values are read")
  func documented() throws {
    let shipped = fileText(TestPaths.packageRoot + "/config/orientd.conf")
    #expect(shipped.contains("quotes"), "config/orientd.conf")
    #expect(shipped.contains("given twice"), "config/orientd.conf")
    let manual = fileText(TestPaths.packageRoot + "/man/orientd.conf.5")
    #expect(manual.contains("quote"), "man/orientd.conf.5")
    #expect(manual.contains("given twice"), "man/orientd.conf.5")
  }
}
