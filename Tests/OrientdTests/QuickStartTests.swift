import Foundation
import Testing

/// The README's quick start: its three commands, what they build, and that CI runs them.
@Suite("The quick start works as written", .scratch)
struct QuickStartTests {
  /// The shell blocks of the README's quick start, in order.
  static func commands() throws -> [String] {
    let readme = fileText(TestPaths.packageRoot + "/README.md")
    let start = try #require(readme.range(of: "## Quick start (Debian 12)\n"), "no quick start")
    let rest = readme[start.upperBound...]
    let section = rest[..<(rest.range(of: "\n## ")?.lowerBound ?? rest.endIndex)]
    return section.components(separatedBy: "```sh\n").dropFirst().compactMap {
      $0.components(separatedBy: "\n```").first
    }
  }

  @Test("Three commands: the demo, the tests and the stage, each bootstrapping what it needs")
  func threeCommands() throws {
    #expect(
      try Self.commands() == [
        "scripts/bootstrap && make && .build/release/orientd --demo --dump",
        "scripts/bootstrap --tests && swift test",
        "scripts/bootstrap --tests && Tests/RealSystem/run",
      ])
    // CI runs the same test and stage commands on a fresh machine.
    let ci = fileText(TestPaths.packageRoot + "/.ci/run").split(separator: "\n").map(String.init)
    #expect(ci.contains("scripts/bootstrap --tests && swift test"))
    #expect(ci.contains { $0.hasPrefix("Tests/RealSystem/run") })
  }

  @Test("make builds both programs the quick start runs, where it runs them")
  func makeBuildsBothPrograms() throws {
    let make = try #require(TestPaths.which("make"), "make is missing")
    // A dry run: what make would do, nothing built.
    let dryRun = try runToCompletion([make, "-n", "-C", TestPaths.packageRoot])
    #expect(dryRun.status == 0, "\(dryRun.stderr)")
    let builds = completeLines(dryRun.stdout).filter { $0.contains(" build -c release ") }
    #expect(builds.contains { $0.hasSuffix("--product orientd") }, "\(dryRun.stdout)")
    #expect(builds.contains { $0.hasSuffix("--product orientctl") }, "\(dryRun.stdout)")
    // make's products land in .build/release, where the quick start runs orientd and orientctl.
    // (make records the sources' digest beside the binaries it built.)
    let stamp = try runToCompletion([make, "-n", "-C", TestPaths.packageRoot, "stamp"])
    #expect(stamp.stdout.contains("> \".build/release/orientd.sources\""), "\(stamp.stdout)")
    let readme = fileText(TestPaths.packageRoot + "/README.md")
    #expect(readme.contains("`.build/release/orientctl monitor`"))
  }
}
