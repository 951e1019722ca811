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

  /// Stand-ins for bootstrap's tools: dpkg-query reports the packages in `installed` (every one
  /// when nil), apt-get writes its arguments to `apt.log` and succeeds; nothing is installed.
  static func bootstrapStubs(installed: Set<String>? = nil) throws -> (
    environment: [String: String], log: String
  ) {
    let stubs = try Scratch.current().makeDirectory("bootstrap-stubs")
    let log = stubs + "/apt.log"
    let query =
      installed.map { names in
        "case \" $(echo \(names.sorted().joined(separator: " "))) \" in *\" $3 \"*) printf 'install ok installed';; esac"
      } ?? "printf 'install ok installed'"
    let scripts = [
      "dpkg-query": query,
      "swift": "echo 'Swift version 6.3.1 (swift-6.3.1-RELEASE)'",
      "apt-get": "echo \"$@\" >> \(log)",
      "sudo": "\"$@\"",
    ]
    for (name, body) in scripts {
      try "#!/bin/sh\n\(body)\n".write(toFile: stubs + "/" + name, atomically: true, encoding: .utf8)
      chmod(stubs + "/" + name, 0o755)
    }
    var environment = try Scratch.current().environment
    environment["PATH"] = stubs + ":/usr/bin:/bin"
    return (environment, log)
  }

  static func packageList(_ name: String) -> [String] {
    fileText(TestPaths.packageRoot + "/scripts/" + name).split(whereSeparator: \.isWhitespace).map(
      String.init)
  }

  @Test(
    "scripts/bootstrap says what it checked when nothing was missing, with --tests the tests' packages too")
  func bootstrapSaysWhatItChecked() throws {
    let (environment, log) = try Self.bootstrapStubs()
    let build = Self.packageList("debian-packages")
    let tests = Self.packageList("debian-packages-tests")
    for (arguments, count) in [([String](), build.count), (["--tests"], build.count + tests.count)] {
      let result = try runToCompletion(
        [TestPaths.packageRoot + "/scripts/bootstrap"] + arguments, environment: environment)
      #expect(result.status == 0, "\(result.stderr)")
      #expect(
        result.stdout.contains("bootstrap: all \(count) Debian packages are installed"), "\(result.stdout)")
      #expect(result.stdout.contains("Swift version 6.3.1"), "\(result.stdout)")
    }
    #expect(fileText(log).isEmpty, "apt-get ran: \(fileText(log))")
    let wrong = try runToCompletion(
      [TestPaths.packageRoot + "/scripts/bootstrap", "--test"], environment: environment)
    #expect(wrong.status == 64)
    #expect(wrong.stderr.contains("usage: scripts/bootstrap [--tests]"), "\(wrong.stderr)")
  }

  @Test(
    "The quick start's bootstrap installs what building and the demo need, not the tests' daemons, emulator and shells"
  )
  func bootstrapForTheDemoOnly() throws {
    let (environment, log) = try Self.bootstrapStubs(installed: [])
    let result = try runToCompletion([TestPaths.packageRoot + "/scripts/bootstrap"], environment: environment)
    #expect(result.status == 0, "\(result.stderr)")
    let installs = fileText(log).split(separator: "\n").filter { $0.hasPrefix("install ") }
    try #require(installs.count == 1, "\(fileText(log))")
    let asked = Set(
      installs[0].split(separator: " ").map(String.init).filter { !$0.hasPrefix("-") }.dropFirst())
    #expect(asked == Set(Self.packageList("debian-packages")), "\(asked)")
    // What a convertible's user must not get from seeing the demo: a second sensor daemon
    // (iio-sensor-proxy would take the sensor), an emulator, other shells.
    for package in ["iio-sensor-proxy", "qemu-system-x86", "lintian", "zsh", "fish", "umockdev"] {
      #expect(!asked.contains(package), "\(package)")
      #expect(Self.packageList("debian-packages-tests").contains(package), "\(package) is for the tests")
    }
    // What building needs: the libraries' development packages.
    for package in ["libiio-dev", "libudev-dev", "libsystemd-dev", "libevdev-dev", "pkg-config"] {
      #expect(asked.contains(package), "\(package)")
    }
  }
}
