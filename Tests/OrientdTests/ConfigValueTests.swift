import Foundation
import Testing

@Suite("Config values: ranges, the control group, a BOM, and sample-source options", .scratch)
struct ConfigValueTests {
  func writeConfig(_ text: String) throws -> String {
    let path = try Scratch.current().makeDirectory() + "/orientd.conf"
    try writeConfigFile(text, to: path)
    return path
  }

  @Test(
    "An out-of-range value in the config file exits 78 naming file:line, the key and what is allowed",
    arguments: [
      ("# tuned\nthreshold = 5\n", ":2: threshold: expected a number of g above 0 and at most 1, got '5'"),
      ("hysteresis = 1.5\n", ":1: hysteresis: expected a number of g from 0 and below 1, got '1.5'"),
      ("shake-tolerance = 7\n", ":1: shake-tolerance: expected a number of g from 0 to 4, got '7'"),
      ("threshold = 0.3\nhysteresis = 0.4\n", ":2: hysteresis: the hysteresis must be below the threshold"),
    ])
  func rangeInFile(text: String, message: String) throws {
    let path = try writeConfig(text)
    let result = try runToCompletion([TestPaths.orientd, "--config", path, "--demo", "--dump"])
    #expect(result.status == 78, "\(result.stderr)")
    #expect(result.stderr.contains(path + message), "\(result.stderr)")
  }

  @Test("An out-of-range value on the command line exits 64 naming the option")
  func rangeOnCommandLine() throws {
    let result = try runToCompletion([TestPaths.orientd, "--threshold", "5", "--demo", "--dump"])
    #expect(result.status == 64)
    #expect(result.stderr.contains("--threshold: expected a number of g above 0 and at most 1, got '5'"))
  }

  @Test(
    "An unknown control group is refused before anything listens: 78 with file:line from the file, 64 from the option"
  )
  func unknownControlGroup() throws {
    let scratch = try Scratch.current()
    let socket = scratch.path("orientd.sock")
    let group = "no-such-group-orientd"
    let path = try writeConfig("# access\ncontrol-group = \(group)\n")
    let fromFile = try runToCompletion([
      TestPaths.orientd, "--config", path, "--demo", "--socket", socket, "--state", scratch.path("state"),
    ])
    #expect(fromFile.status == 78, "\(fromFile.stderr)")
    #expect(
      fromFile.stderr.contains("\(path):2: control-group: no group named '\(group)'"), "\(fromFile.stderr)")
    #expect(!fromFile.stderr.contains("listening on"), "\(fromFile.stderr)")
    #expect(!FileManager.default.fileExists(atPath: socket))

    let fromOption = try runToCompletion([
      TestPaths.orientd, "--demo", "--control-group", group, "--socket", socket, "--state",
      scratch.path("state"),
    ])
    #expect(fromOption.status == 64, "\(fromOption.stderr)")
    #expect(fromOption.stderr.contains("--control-group: no group named '\(group)'"), "\(fromOption.stderr)")
    #expect(!fromOption.stderr.contains("listening on"), "\(fromOption.stderr)")
    #expect(!FileManager.default.fileExists(atPath: socket))
  }

  @Test("A config file saved with a UTF-8 byte order mark is read")
  func byteOrderMark() throws {
    let path = try Scratch.current().makeDirectory() + "/orientd.conf"
    try Data([0xEF, 0xBB, 0xBF] + Array("allowed = left-up\nsettle = 0\n".utf8)).write(
      to: URL(fileURLWithPath: path))
    var trace = TraceBuilder(stepMilliseconds: 100)
    trace.hold(1, 0, 0, count: 5)
    let result = try runToCompletion([
      TestPaths.orientd, "--config", path, "--dump", "--replay", try trace.write(),
    ])
    #expect(result.status == 0, "\(result.stderr)")
    #expect(result.stdout == "0.000 device left-up\n0.000 orientation left-up\n")
  }

  @Test(
    "--demo twice, and --demo or --replay with --mode or --interval, exit 64 naming the options",
    arguments: [
      (["--demo", "--demo"], "--demo given twice"),
      (["--demo", "--mode", "poll"], "--mode applies to an IIO sensor and cannot be combined with --demo"),
      (
        ["--demo", "--interval", "50"],
        "--interval applies to an IIO sensor and cannot be combined with --demo"
      ),
    ])
  func sourceOptions(arguments: [String], message: String) throws {
    let result = try runToCompletion([TestPaths.orientd, "--dump"] + arguments)
    #expect(result.status == 64, "\(result.stderr)")
    #expect(result.stderr.contains(message), "\(result.stderr)")
  }
}
