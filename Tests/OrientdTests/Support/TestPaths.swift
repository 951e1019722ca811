import Foundation

/// Where the built executables are, and how orientd is kept off the host's own paths.
enum TestPaths {
  /// The build directory: the test bundle sits next to the executables.
  static let buildDirectory: URL = {
    let executable = URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath()
    var directory = executable.deletingLastPathComponent()
    // On Linux the test runner is `<build>/orientdPackageTests.xctest`; step out of bundles just in case.
    while directory.pathExtension == "xctest" || directory.lastPathComponent == "Contents" {
      directory = directory.deletingLastPathComponent()
    }
    return directory
  }()

  /// The built `orientd`.
  static var orientd: String { buildDirectory.appendingPathComponent("orientd").path }

  /// The built `orientctl`.
  static var orientctl: String { buildDirectory.appendingPathComponent("orientctl").path }

  /// The built `orientd-testbench`: its `attack` subcommand plays a hostile client, its
  /// `switches` and `virtual-switch` probe the input devices.
  static var testbench: String { buildDirectory.appendingPathComponent("orientd-testbench").path }

  /// orientd's `arguments` with every default that reaches the host replaced by a path in
  /// `scratch`: an empty config file instead of /etc/orientd/orientd.conf and, when orientd
  /// will serve or persist, a socket and a state file instead of /run/orientd/orientd.sock and
  /// /var/lib/orientd/state. What the test gives itself is kept.
  static func isolated(orientdArguments arguments: [String], in scratch: Scratch) throws -> [String] {
    func given(_ option: String) -> Bool { arguments.contains { $0 == option || $0.hasPrefix(option + "=") } }
    var result = arguments
    // --default-config names a file in the test's own directory (orientd takes one of the two).
    if !given("--config"), !given("--default-config") { result += ["--config", try scratch.emptyConfig()] }
    // As orientd decides: it serves unless it dumps without --socket, and persists whenever it
    // serves or is given --state; --list, --help and --version do neither.
    guard !["--list", "--help", "--version"].contains(where: given) else { return result }
    let serves = !given("--dump") || given("--socket")
    if serves, !given("--socket") { result += ["--socket", scratch.path("orientd.sock")] }
    if serves, !given("--state") { result += ["--state", scratch.path("orientd.state")] }
    return result
  }

  /// Finds a program on PATH, or nil.
  static func which(_ program: String) -> String? {
    let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"
    for directory in path.split(separator: ":") {
      let candidate = "\(directory)/\(program)"
      if FileManager.default.isExecutableFile(atPath: candidate) { return candidate }
    }
    return nil
  }

  /// The package's root directory, for the shipped config, hooks and units.
  static let packageRoot: String = {
    var url = URL(fileURLWithPath: #filePath)
    for _ in 0..<4 { url.deleteLastPathComponent() }
    return url.path
  }()
}
