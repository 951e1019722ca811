import Foundation
import Testing

/// The small things a new user meets first: short options, suggestions, help texts.
@Suite("Usage details: short options, suggestions, help texts", .scratch)
struct UsageDetailsTests {
  @Test("orientd -h prints the help and -V the version, as --help and --version do")
  func shortOptions() throws {
    let help = try runToCompletion([TestPaths.orientd, "-h"])
    #expect(help.status == 0, "\(help.stderr)")
    #expect(help.stdout == (try runToCompletion([TestPaths.orientd, "--help"])).stdout)
    let version = try runToCompletion([TestPaths.orientd, "-V"])
    #expect(version.status == 0, "\(version.stderr)")
    #expect(version.stdout.hasPrefix("orientd "))
    let clientVersion = try runToCompletion([TestPaths.orientctl, "-V"])
    #expect(clientVersion.status == 0, "\(clientVersion.stderr)")
    #expect(clientVersion.stdout.hasPrefix("orientctl "))
  }

  @Test(
    "A mistyped orientctl option gets a suggestion, as orientd's do",
    arguments: [
      (["--sokcet", "/x", "get"], "unknown option '--sokcet' (did you mean --socket?)"),
      (["--timout", "2", "get"], "unknown option '--timout' (did you mean --timeout?)"),
      (["get", "--jsno"], "get: unknown option '--jsno' (did you mean --json?)"),
      (
        ["monitor", "--no-reconect"], "monitor: unknown option '--no-reconect' (did you mean --no-reconnect?)"
      ),
      (["calibrate", "--yse"], "calibrate: unknown option '--yse' (did you mean --yes?)"),
      (["hook", "--timeuot", "5", "true"], "hook: unknown option '--timeuot' (did you mean --timeout?)"),
    ])
  func optionSuggestions(arguments: [String], message: String) throws {
    let socket = try Scratch.current().path("nothing.sock")
    let result = try runToCompletion([TestPaths.orientctl, "--socket", socket] + arguments)
    #expect(result.status == 64)
    #expect(result.stderr.contains(message), "\(result.stderr)")
  }

  @Test(
    "--timeout 0 says it must be above 0", arguments: [["--timeout", "0", "get"], ["get", "--timeout=0"]])
  func timeoutZero(arguments: [String]) throws {
    let result = try runToCompletion([TestPaths.orientctl] + arguments)
    #expect(result.status == 64)
    #expect(result.stderr.contains("--timeout: must be above 0"), "\(result.stderr)")
  }

  @Test("help COMMAND prints that command and the options, not the exit-status list again")
  func commandHelpIsShort() throws {
    let lock = try runToCompletion([TestPaths.orientctl, "help", "lock"])
    #expect(lock.status == 0)
    #expect(lock.stdout.contains("--timeout"), "\(lock.stdout)")
    #expect(!lock.stdout.contains("Exit status"), "\(lock.stdout)")
    #expect(try runToCompletion([TestPaths.orientctl, "--help"]).stdout.contains("Exit status"))
  }

  @Test("Every line of orientd --help and orientctl --help fits 80 columns")
  func helpFitsEightyColumns() throws {
    for program in [TestPaths.orientd, TestPaths.orientctl] {
      let help = try runToCompletion([program, "--help"])
      #expect(help.status == 0)
      for line in help.stdout.split(separator: "\n") {
        #expect(line.count <= 80, "\(line.count) columns in \(program) --help: \(line)")
      }
    }
  }

  @Test("ORIENTD_HOOK set to a hook that does not exist lists the ones there are")
  func bogusHookNamed() throws {
    let stubs = try DesktopStubs()
    let result = try runToCompletion(
      [TestPaths.packageRoot + "/config/hooks/auto"],
      environment: stubs.environment(for: "normal", extra: ["ORIENTD_HOOK": "bogus", "DISPLAY": ":0"]))
    #expect(result.status == 64, "\(result.stderr)")
    #expect(
      result.stderr.contains("ORIENTD_HOOK=bogus: no such hook; choose x11, sway, hyprland, kde or wlroots"),
      "\(result.stderr)")
    #expect(stubs.calls.isEmpty)
  }

  @Test("scripts/bootstrap says what it checked when nothing was missing")
  func bootstrapSaysWhatItChecked() throws {
    // Stand-ins: every package installed, a Swift toolchain; nothing is installed for real.
    let stubs = try Scratch.current().makeDirectory("bootstrap-stubs")
    let scripts = [
      "dpkg-query": "printf 'install ok installed'",
      "swift": "echo 'Swift version 6.3.1 (swift-6.3.1-RELEASE)'",
      "apt-get": "echo apt-get must not run >&2; exit 1",
      "sudo": "\"$@\"",
    ]
    for (name, body) in scripts {
      try "#!/bin/sh\n\(body)\n".write(toFile: stubs + "/" + name, atomically: true, encoding: .utf8)
      chmod(stubs + "/" + name, 0o755)
    }
    var environment = try Scratch.current().environment
    environment["PATH"] = stubs + ":/usr/bin:/bin"
    let result = try runToCompletion([TestPaths.packageRoot + "/scripts/bootstrap"], environment: environment)
    #expect(result.status == 0, "\(result.stderr)")
    let count = fileText(TestPaths.packageRoot + "/scripts/debian-packages").split(
      whereSeparator: \.isWhitespace
    )
    .count
    #expect(
      result.stdout.contains("bootstrap: all \(count) Debian packages are installed"), "\(result.stdout)")
    #expect(result.stdout.contains("Swift version 6.3.1"), "\(result.stdout)")
  }
}
