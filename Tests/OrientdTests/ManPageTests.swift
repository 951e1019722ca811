import Foundation
import Testing

/// orientd(8), orientctl(1) and orientd.conf(5): they render, are installed, and name what
/// the programs accept.
@Suite("The manual pages", .scratch)
struct ManPageTests {
  static func page(_ name: String) -> String { fileText(TestPaths.packageRoot + "/man/" + name) }

  /// `text` as man shows it: roff rendered to plain text, warnings on stderr.
  static func rendered(_ name: String) throws -> (text: String, warnings: String) {
    let groff = try #require(TestPaths.which("groff"), "groff is missing: apt-get install groff-base")
    var environment = try Scratch.current().environment
    environment["LC_ALL"] = "C.UTF-8"
    // -P-c: bold and underline as overstriking, which is dropped below, not as escapes.
    let result = try runToCompletion(
      [groff, "-man", "-Tutf8", "-P-c", "-ww", "-rLL=80n", TestPaths.packageRoot + "/man/" + name],
      environment: environment)
    #expect(result.status == 0, "\(name): \(result.stderr)")
    // Plain text: each overstruck character once.
    let text = result.stdout.replacingOccurrences(of: ".\u{8}", with: "", options: .regularExpression)
    return (text, result.stderr)
  }

  /// Rendered `text` as one line of prose: a word hyphenated at a line's end joined again
  /// (groff marks those breaks with U+2010, never an ASCII hyphen), and every run of blanks
  /// and line breaks one space.
  static func prose(_ text: String) -> String {
    text.replacingOccurrences(of: "\u{2010}\n\\s*", with: "", options: .regularExpression)
      .replacingOccurrences(of: "\\s+", with: " ", options: .regularExpression)
  }

  @Test(
    "Each page renders with groff without a warning",
    arguments: ["orientd.8", "orientctl.1", "orientd.conf.5"])
  func rendersCleanly(name: String) throws {
    let (text, warnings) = try Self.rendered(name)
    #expect(warnings.isEmpty, "\(name): \(warnings)")
    #expect(text.contains("NAME"), "\(name)")
    #expect(text.contains("SEE ALSO"), "\(name)")
  }

  @Test("orientd(8) describes every option of orientd --help, and its exit statuses")
  func orientdPageHasEveryOption() throws {
    let help = try runToCompletion([TestPaths.orientd, "--help"]).stdout
    let (text, _) = try Self.rendered("orientd.8")
    for option in CompletionTests.options(inHelp: help) {
      #expect(text.contains(option), "orientd.8 lacks \(option)")
    }
    for status in ["64", "65", "66", "69", "73", "78"] { #expect(text.contains(status), "exit \(status)") }
  }

  @Test("orientd.conf(5) describes every key the config file accepts")
  func confPageHasEveryKey() throws {
    let help = try runToCompletion([TestPaths.orientd, "--help"]).stdout
    let (text, _) = try Self.rendered("orientd.conf.5")
    // The settings: every option but the command line's own.
    let commandLineOnly: Set = [
      "--dump", "--list", "--check-config", "--help", "--version", "--completion", "--replay", "--demo",
      "--config",
      "--default-config",
    ]
    let keys = CompletionTests.options(inHelp: help).subtracting(commandLineOnly).map {
      String($0.dropFirst(2))
    }
    #expect(keys.count >= 25, "\(keys)")
    for key in keys { #expect(text.contains("\(key) ="), "orientd.conf.5 lacks \(key)") }
  }

  @Test("orientctl(1) describes every command and option of orientctl --help, and its exit statuses")
  func orientctlPageHasEveryCommand() throws {
    let help = try runToCompletion([TestPaths.orientctl, "--help"]).stdout
    let (text, _) = try Self.rendered("orientctl.1")
    for command in try ReadmeTests.helpCommands() {
      #expect(text.contains(command), "orientctl.1 lacks \(command)")
    }
    for option in Set(help.matches(of: /--[a-z][a-z-]*/).map { String($0.output) }) {
      #expect(text.contains(option), "orientctl.1 lacks \(option)")
    }
    for status in ["64", "65", "69", "75", "77", "127"] { #expect(text.contains(status), "exit \(status)") }
  }

  @Test("make install installs the pages, and the units' Documentation= names them")
  func installedAndLinked() throws {
    let destination = try stagedMakeInstall()
    for page in ["man8/orientd.8", "man1/orientctl.1", "man5/orientd.conf.5"] {
      let path = destination + "/usr/share/man/" + page
      #expect(
        FileManager.default.fileExists(atPath: path) || FileManager.default.fileExists(atPath: path + ".gz"),
        "\(page)")
    }
    let units = destination + "/usr/lib/systemd/"
    let service = fileText(units + "system/orientd.service")
    #expect(service.contains("Documentation=man:orientd(8) man:orientd.conf(5)"), "\(service)")
    #expect(fileText(units + "system/orientd.socket").contains("Documentation=man:orientd(8)"))
    #expect(fileText(units + "user/orientd-hook.service").contains("Documentation=man:orientctl(1)"))
    // man finds them by name where they were installed.
    let man = try #require(TestPaths.which("man"))
    var environment = try Scratch.current().environment
    environment["MANPATH"] = destination + "/usr/share/man"
    environment["MANPAGER"] = "cat"
    environment["PAGER"] = "cat"
    let shown = try runToCompletion([man, "orientd.conf"], environment: environment)
    #expect(shown.status == 0, "\(shown.stderr)")
    #expect(shown.stdout.contains("orientd.conf"), "\(shown.stdout)")
  }
}
