import Foundation
import Testing

@Suite("orientd --help and the README", .scratch)
struct HelpTests {
  /// The README next to the package.
  static let readme = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
    .deletingLastPathComponent().appendingPathComponent("README.md").path

  @Test("The README's option list is exactly the one orientd --help prints")
  func readmeListsTheOptionsOfHelp() throws {
    let help = try runToCompletion([TestPaths.orientd, "--help"])
    #expect(help.status == 0)
    let printed = try #require(
      help.stdout.range(of: "Actions:").flatMap { start in
        help.stdout.range(of: "\nOrientations:").map { help.stdout[start.lowerBound..<$0.lowerBound] }
      }, "the help has no option list: \(help.stdout)")
    let readme = try String(contentsOfFile: Self.readme, encoding: .utf8)
    let listed = try #require(
      readme.range(of: "### Options\n\n```\n").flatMap { start in
        readme[start.upperBound...].range(of: "```").map { readme[start.upperBound..<$0.lowerBound] }
      }, "README.md has no '### Options' block")
    #expect(
      listed.trimmingCharacters(in: .newlines) == printed.trimmingCharacters(in: .newlines),
      "update README.md's option list from `orientd --help`")
    // The premise: the list is not empty and names options.
    #expect(printed.contains("--interval MS"))
  }
}
