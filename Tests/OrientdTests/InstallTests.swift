import Foundation
import Testing

/// `make install` and `make uninstall` as a new user runs them.
@Suite("make install from another tree, and make uninstall's advice", .scratch)
struct InstallTests {
  /// A copy of the package's files as a fresh clone has them: every file just written.
  static func freshClone() throws -> String {
    let clone = try Scratch.current().makeDirectory("clone")
    let tar = try #require(TestPaths.which("tar"))
    let copy = try runToCompletion([
      "/bin/sh", "-c",
      "\"$0\" -C \"$1\" --exclude=./.build --exclude=./.git -cf - . | \"$0\" -C \"$2\" -xf - "
        + "&& find \"$2\" -exec touch {} +",
      tar, TestPaths.packageRoot, clone,
    ])
    try #require(copy.status == 0, "\(copy.stderr)")
    return clone
  }

  /// orientd and orientctl copied into a directory of their own, stamped by `make` with the
  /// sources they were built from, as `make` leaves them.
  static func builtBinaries() throws -> String {
    let make = try #require(TestPaths.which("make"), "make is missing")
    let binaries = try Scratch.current().makeDirectory("binaries")
    for name in ["orientd", "orientctl"] {
      try FileManager.default.copyItem(
        atPath: TestPaths.buildDirectory.path + "/" + name, toPath: binaries + "/" + name)
    }
    let stamp = try runToCompletion([
      make, "-s", "-C", TestPaths.packageRoot, "stamp", "SWIFT=false", "BINPATH=\(binaries)",
    ])
    try #require(stamp.status == 0, "\(stamp.stderr)")
    return binaries
  }

  @Test("make install BINPATH=... from a fresh clone of the same sources does not warn; changed sources do")
  func installFromFreshClone() throws {
    let make = try #require(TestPaths.which("make"), "make is missing")
    let binaries = try Self.builtBinaries()
    let clone = try Self.freshClone()
    let destination = try Scratch.current().makeDirectory("destdir")
    let install = [
      make, "-C", clone, "install", "SWIFT=false", "BINPATH=\(binaries)", "DESTDIR=\(destination)",
    ]
    let same = try runToCompletion(install, timeout: 120)
    #expect(same.status == 0, "\(same.stderr)")
    #expect(!same.stderr.contains("warning"), "the same sources, newer files: \(same.stderr)")
    #expect(FileManager.default.fileExists(atPath: destination + "/usr/local/bin/orientd"))

    // A changed source is a reason to build again.
    let source = clone + "/Sources/orientctl/main.swift"
    try (fileText(source) + "// changed\n").write(toFile: source, atomically: true, encoding: .utf8)
    let changed = try runToCompletion(install, timeout: 120)
    #expect(changed.status == 0, "\(changed.stderr)")
    #expect(
      changed.stderr.contains(
        "make install: warning: the sources differ from those \(binaries)/orientd was built from"),
      "\(changed.stderr)")
  }

  @Test("make uninstall says to disable the units and reload systemd first, as the README does")
  func uninstallAdvice() throws {
    let make = try #require(TestPaths.which("make"), "make is missing")
    let destination = try Scratch.current().makeDirectory("destdir")
    let removed = try runToCompletion(
      [make, "-C", TestPaths.packageRoot, "uninstall", "SWIFT=false", "DESTDIR=\(destination)"], timeout: 60)
    #expect(removed.status == 0, "\(removed.stderr)")
    let advice = [
      "systemctl disable --now orientd.socket orientd.service",
      "systemctl --user disable --now orientd-hook.service", "systemctl daemon-reload",
    ]
    let readme = fileText(TestPaths.packageRoot + "/README.md")
    for line in advice {
      #expect(removed.stdout.contains(line) || removed.stderr.contains(line), "make uninstall: \(line)")
      #expect(readme.contains(line), "README: \(line)")
    }
  }
}
