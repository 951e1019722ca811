import Foundation
import Testing

/// orientctl(1) and the documents beside the README, checked against the programs; the
/// README's links, checked against what `make install` installs.
@Suite("The documentation agrees with orientctl, and its links resolve where it is installed", .scratch)
struct ReadmeTests {
  static var readme: String { fileText(TestPaths.packageRoot + "/README.md") }
  /// docs/protocol.md, which holds the socket protocol and its one-liners.
  static var protocolDocument: String { fileText(TestPaths.packageRoot + "/docs/protocol.md") }

  /// orientctl(1) as man shows it, as one line of prose: hyphenation undone, every run of
  /// blanks and line breaks one space.
  static func orientctlPage() throws -> String {
    let (text, _) = try ManPageTests.rendered("orientctl.1")
    return ManPageTests.prose(text)
  }

  /// orientctl(1)'s SYNOPSIS section, up to DESCRIPTION.
  static func orientctlSynopsis() throws -> Substring {
    let (text, _) = try ManPageTests.rendered("orientctl.1")
    guard let start = text.range(of: "\nSYNOPSIS\n") else { return "" }
    let rest = text[start.upperBound...]
    return rest[..<(rest.range(of: "\nDESCRIPTION\n")?.lowerBound ?? rest.endIndex)]
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

  @Test("orientctl(1)'s synopsis names every command orientctl --help lists")
  func synopsisHasEveryCommand() throws {
    let synopsis = try Self.orientctlSynopsis()
    #expect(!synopsis.isEmpty, "orientctl.1 has no SYNOPSIS")
    let commands = try Self.helpCommands()
    #expect(commands.count >= 12, "\(commands)")
    for command in commands {
      #expect(
        synopsis.range(of: "\\b\(command)\\b", options: .regularExpression) != nil,
        "the synopsis lacks \(command): \(synopsis)")
    }
  }

  @Test(
    "orientctl(1): get's line count, the FIELD list, the JSON example and the --timeout list match orientctl")
  func getAndTimeoutDescribed() throws {
    let page = try Self.orientctlPage()
    let daemon = try ServedDaemon()
    let lines = try daemon.orientctl("get").stdout.split(separator: "\n").count
    let words = [5: "five", 6: "six", 7: "seven"]
    #expect(page.contains("the \(words[lines]!) state lines"), "get prints \(lines) lines")
    let json = try daemon.orientctl("get", "--json").stdout
    #expect(daemon.stop() == 0)
    let fieldList = try #require(
      page.range(of: "(fields: ").flatMap { start in
        page[start.upperBound...].range(of: ")").map { page[start.upperBound..<$0.lowerBound] }
      }, "no field list")
    let fields = fieldList.components(separatedBy: ", ").map {
      $0.trimmingCharacters(in: CharacterSet(charactersIn: "` "))
    }
    #expect(fields == ["sensor", "device", "orientation", "lock", "allowed", "mode", "hinge"], "\(fields)")
    // Every key orientctl prints is in the page's example object.
    let object = try #require(try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any])
    for key in object.keys { #expect(page.contains("\"\(key)\":"), "the JSON example lacks \(key)") }
    #expect(page.contains("\"hinge\":"), "the JSON example lacks hinge")
    // The commands --timeout covers, as the help lists them.
    let help = try runToCompletion([TestPaths.orientctl, "--help"]).stdout
    #expect(help.contains("give up on get, lock, unlock, rotate, allow, mode and doctor"), "\(help)")
    #expect(
      page.lowercased().contains("give up on get, lock, unlock, rotate, allow, mode and doctor"),
      "the --timeout list")
  }

  @Test("docs/protocol.md's one-liner prints the state once; it says nc -U needs netcat-openbsd")
  func oneLiner() throws {
    let protocolDocument = Self.protocolDocument
    let line = try #require(
      protocolDocument.split(separator: "\n").first { $0.hasPrefix("echo quit | socat") },
      "no one-liner in docs/protocol.md")
    let command = line.components(separatedBy: "  #").first!.replacingOccurrences(
      of: "/run/orientd/orientd.sock", with: "$SOCKET")
    let daemon = try ServedDaemon()
    var environment = try Scratch.current().environment
    environment["SOCKET"] = daemon.socket
    let result = try runToCompletion(["/bin/sh", "-c", command], environment: environment)
    #expect(result.status == 0, "\(result.stderr)")
    #expect(completeLines(result.stdout) == normalSnapshot, "\(result.stdout)")
    #expect(daemon.stop() == 0)
    #expect(protocolDocument.contains("nc -U"))
    #expect(protocolDocument.contains("netcat-openbsd"))
  }

  @Test("Every file the installed README and its documents link to is installed, and every document in docs/")
  func installedLinksResolve() throws {
    let destination = try stagedMakeInstall()
    let documentation = destination + "/usr/share/doc/orientd"
    let expression = try NSRegularExpression(pattern: #"\]\(([^)#:]+)(#[^)]*)?\)"#)
    // The README, then every Markdown file installed beside it, each link relative to its file.
    var documents = ["README.md"]
    let installedDocs = (try? FileManager.default.contentsOfDirectory(atPath: documentation + "/docs")) ?? []
    documents += installedDocs.filter { $0.hasSuffix(".md") }.sorted().map { "docs/" + $0 }
    documents += ["ARCHITECTURE.md", "BENCHMARKS.md"]
    var readmeLinks = 0
    for document in documents {
      let text = fileText(documentation + "/" + document)
      #expect(!text.isEmpty, "\(document) is not installed")
      let directory = (document as NSString).deletingLastPathComponent
      let matches = expression.matches(in: text, range: NSRange(text.startIndex..., in: text))
      if document == "README.md" { readmeLinks = matches.count }
      for match in matches {
        let target = String(text[Range(match.range(at: 1), in: text)!])
        let path = ((documentation + "/" + directory) as NSString).appendingPathComponent(target)
        #expect(
          FileManager.default.fileExists(atPath: path),
          "the installed \(document) links \(target), which is not installed")
      }
    }
    #expect(readmeLinks > 0)
    // Every document in the sources' docs/ is installed (the Makefile's DOCS lists them).
    let sources = try FileManager.default.contentsOfDirectory(atPath: TestPaths.packageRoot + "/docs")
    for document in sources where document.hasSuffix(".md") {
      #expect(installedDocs.contains(document), "docs/\(document) is not installed")
    }
  }
}
