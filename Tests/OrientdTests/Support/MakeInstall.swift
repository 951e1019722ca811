import Foundation
import Testing

/// Runs the package's `make install` of the binaries the tests built into a staging directory
/// (`DESTDIR`), as a packager does, with `PREFIX=prefix`; records an issue when it fails.
/// `SWIFT=false`: install only copies, so it runs where swift is not on PATH (sudo).
/// Returns the staging directory, in the test's scratch directory.
func stagedMakeInstall(prefix: String = "/usr") throws -> String {
  let make = try #require(TestPaths.which("make"), "make is missing")
  let destination = try Scratch.current().makeDirectory("destdir")
  let installed = try runToCompletion(
    [
      make, "-C", TestPaths.packageRoot, "install", "SWIFT=false",
      "BINPATH=\(TestPaths.buildDirectory.path)", "PREFIX=\(prefix)", "DESTDIR=\(destination)",
    ], timeout: 120)
  #expect(installed.status == 0, "\(installed.stderr)")
  return destination
}
