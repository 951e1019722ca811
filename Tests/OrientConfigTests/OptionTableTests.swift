import OrientCore
import Testing

@testable import OrientConfig

@Suite("The option table")
struct OptionTableTests {
  @Test("Every option in the table, and so in --help, is accepted on the command line")
  func everyOptionParses() throws {
    #expect(OptionTable.all.count >= 25)
    for option in OptionTable.all {
      let arguments = ["--" + option.name] + (option.isFlag ? [] : ["x"])
      do {
        _ = try CommandLineArguments.parse(arguments)
      } catch {
        Issue.record("--\(option.name) is in the table but the command line refuses it: \(error.message)")
      }
    }
    #expect(throws: Failure.self) { try CommandLineArguments.parse(["--not-an-option"]) }
  }

  @Test("The config file takes exactly the settings, and the help lists every option once")
  func configKeysAndHelp() {
    let names = OptionTable.all.map(\.name)
    #expect(Set(names).count == names.count, "an option is listed twice")
    #expect(ConfigFile.keys == OptionTable.all.filter { $0.set != nil }.map(\.name))
    for commandLineOnly in ["dump", "list", "help", "version", "replay", "demo", "config"] {
      #expect(!ConfigFile.keys.contains(commandLineOnly))
    }
    let lines = DaemonHelp.text.split(separator: "\n")
    for name in names {
      let mentions = lines.filter { $0.hasPrefix("  --\(name) ") }
      #expect(mentions.count == 1, "--\(name) has \(mentions.count) lines in the help")
    }
  }
}
