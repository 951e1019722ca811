import Foundation
import Testing

@testable import OrientClient

/// orientctl's usage errors, held to the command table that parsing and the completions use:
/// a usage line written by hand once left out `monitor --supports`.
@Suite("orientctl's usage errors name every option of the command table", .scratch)
struct OrientctlUsageTests {
  /// For each command, a command line orientctl rejects with that command's usage line.
  static let misuses: [String: [String]] = [
    "get": ["get", "sensor", "mode"],
    "monitor": ["monitor", "--json", "--iio-sensor-proxy"],
    "lock": ["lock", "normal", "left-up"],
    "unlock": ["unlock", "now"],
    "accept-suggestion": ["accept-suggestion", "now"],
    "rotate": ["rotate"],
    "allow": ["allow"],
    "mode": ["mode", "sideways"],
    "samples": ["samples", "raw"],
    "doctor": ["doctor", "now"],
    "calibrate": ["calibrate", "now"],
    "hook": ["hook", "--oneshot"],
    "completion": ["completion", "tcsh"],
    "help": ["help", "get", "lock"],
  ]

  @Test("Every command of the table has a misuse here, so a new one is checked too")
  func everyCommandHasAMisuse() {
    #expect(Set(Self.misuses.keys) == Set(CommandTable.commands.map(\.name)))
  }

  @Test("A command's usage error names every option the table gives it", arguments: CommandTable.names)
  func usageNamesEveryOption(command: String) throws {
    let misuse = try #require(Self.misuses[command])
    let options = try #require(CommandTable.commands.first { $0.name == command }).options
    // Nothing listens there: a command that got as far as connecting would exit 69, not 64.
    let socket = try Scratch.current().path("nothing.sock")
    let result = try runToCompletion([TestPaths.orientctl, "--socket", socket] + misuse)
    #expect(result.status == 64, "\(misuse): \(result.stderr)")
    let usage = try #require(
      result.stderr.split(separator: "\n").first { $0.contains("usage: \(command)") },
      "\(misuse): \(result.stderr)")
    for option in options {
      #expect(usage.contains("--" + option.name), "\(misuse): \(usage) lacks --\(option.name)")
    }
  }
}
