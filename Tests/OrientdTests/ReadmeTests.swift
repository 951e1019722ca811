import Foundation
import Testing

/// The README's orientctl section and examples, checked against the programs.
@Suite("The README agrees with orientctl", .scratch)
struct ReadmeTests {
  static var readme: String { fileText(TestPaths.packageRoot + "/README.md") }

  /// The README's `## orientctl` section, up to the next `## `.
  static var orientctlSection: Substring {
    let text = readme
    guard let start = text.range(of: "\n## orientctl\n") else { return "" }
    let rest = text[start.upperBound...]
    return rest[..<(rest.range(of: "\n## ")?.lowerBound ?? rest.endIndex)]
  }

  /// The command names `orientctl --help` lists.
  static func helpCommands() throws -> [String] {
    let help = try runToCompletion([TestPaths.orientctl, "--help"]).stdout
    let commands =
      help.components(separatedBy: "Commands:\n").dropFirst().first?.components(
        separatedBy: "\n\n"
      ).first ?? ""
    return commands.split(separator: "\n").filter { $0.hasPrefix("  ") && !$0.hasPrefix("   ") }.compactMap {
      $0.split(separator: " ").first.map(String.init)
    }
  }

  @Test("The synopsis names every command orientctl --help lists")
  func synopsisHasEveryCommand() throws {
    let section = Self.orientctlSection
    let synopsis = try #require(
      section.range(of: "```\n").flatMap { start in
        section[start.upperBound...].range(of: "```").map { section[start.upperBound..<$0.lowerBound] }
      }, "no synopsis block")
    let commands = try Self.helpCommands()
    #expect(commands.count >= 12, "\(commands)")
    for command in commands {
      #expect(
        synopsis.range(of: "\\b\(command)\\b", options: .regularExpression) != nil,
        "the synopsis lacks \(command): \(synopsis)")
    }
  }

  @Test("get's line count, the FIELD list, the JSON example and the --timeout list match orientctl")
  func getAndTimeoutDescribed() throws {
    let section = String(Self.orientctlSection)
    let daemon = try ServedDaemon()
    let lines = try daemon.orientctl("get").stdout.split(separator: "\n").count
    let words = [5: "five", 6: "six", 7: "seven"]
    #expect(
      section.contains("`get` prints\nthe \(words[lines]!) state lines")
        || section.contains("`get` prints the \(words[lines]!) state lines"), "get prints \(lines) lines")
    let json = try daemon.orientctl("get", "--json").stdout
    #expect(daemon.stop() == 0)
    let fieldList = try #require(
      section.range(of: "(fields: ").flatMap { start in
        section[start.upperBound...].range(of: ")").map { section[start.upperBound..<$0.lowerBound] }
      }, "no field list")
    let fields = fieldList.replacingOccurrences(of: "\n", with: " ").components(separatedBy: ", ").map {
      $0.trimmingCharacters(in: CharacterSet(charactersIn: "` "))
    }
    #expect(fields == ["sensor", "device", "orientation", "lock", "allowed", "mode", "hinge"], "\(fields)")
    // Every key orientctl prints is in the README's example object.
    let object = try #require(try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any])
    for key in object.keys { #expect(section.contains("\"\(key)\":"), "the JSON example lacks \(key)") }
    #expect(section.contains("\"hinge\":"), "the JSON example lacks hinge")
    // The commands --timeout covers, as the help lists them.
    let help = try runToCompletion([TestPaths.orientctl, "--help"]).stdout
    #expect(help.contains("give up on get, lock, unlock, rotate, allow, mode and doctor"), "\(help)")
    #expect(
      section.replacingOccurrences(of: "\n", with: " ").contains(
        "`get`, `lock`, `unlock`, `rotate`, `allow`, `mode` and `doctor` give up"), "the --timeout list")
  }

  @Test("The README's one-liner prints the state once; it says nc -U needs netcat-openbsd")
  func oneLiner() throws {
    let readme = Self.readme
    let line = try #require(
      readme.split(separator: "\n").first { $0.hasPrefix("echo quit | socat") }, "no one-liner in the README")
    let command = line.components(separatedBy: "  #").first!.replacingOccurrences(
      of: "/run/orientd/orientd.sock", with: "$SOCKET")
    let daemon = try ServedDaemon()
    var environment = try Scratch.current().environment
    environment["SOCKET"] = daemon.socket
    let result = try runToCompletion(["/bin/sh", "-c", command], environment: environment)
    #expect(result.status == 0, "\(result.stderr)")
    #expect(completeLines(result.stdout) == normalSnapshot, "\(result.stdout)")
    #expect(daemon.stop() == 0)
    #expect(readme.contains("nc -U"))
    #expect(readme.contains("netcat-openbsd"))
  }

  @Test("Every file the installed README links to is installed beside it")
  func installedLinksResolve() throws {
    let destination = try stagedMakeInstall()
    let documentation = destination + "/usr/share/doc/orientd"
    let readme = fileText(documentation + "/README.md")
    let expression = try NSRegularExpression(pattern: #"\]\(([^)#:]+)(#[^)]*)?\)"#)
    let matches = expression.matches(in: readme, range: NSRange(readme.startIndex..., in: readme))
    #expect(!matches.isEmpty)
    for match in matches {
      let target = String(readme[Range(match.range(at: 1), in: readme)!])
      #expect(
        FileManager.default.fileExists(atPath: documentation + "/" + target),
        "the installed README links \(target), which is not installed")
    }
  }
}
