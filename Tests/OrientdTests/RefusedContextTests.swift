import Foundation
import Testing

/// An `xml:` context file one byte over the 1 MiB that orientd reads of one, in the scratch
/// directory.
private func oversizedContext() throws -> String {
  let path = try Scratch.current().makeDirectory() + "/big.xml"
  try Data(repeating: 0x20, count: (1 << 20) + 1).write(to: URL(fileURLWithPath: path))
  return path
}

@Suite("A context refused for what it would cost", .scratch)
struct RefusedContextTests {
  @Test("--list and --dump exit 65 (bad data), saying which limit the context is over")
  func exitsWithDataError() throws {
    let path = try oversizedContext()
    let refusal =
      "refusing the IIO context xml:\(path): \(path) is larger than the limit of 1048576 bytes (1 MiB)"
    for action in ["--list", "--dump"] {
      let result = try runToCompletion([TestPaths.orientd, action, "--uri", "xml:\(path)"])
      #expect(result.status == 65, "\(action): \(result.stderr)")
      #expect(result.stderr.contains(refusal), "\(action): \(result.stderr)")
    }
  }

  @Test("The daemon serves 'sensor offline' and looks again further apart, not every second")
  func daemonBacksOff() throws {
    let path = try oversizedContext()
    let directory = try Scratch.current().makeDirectory()
    let daemon = try TestProcess([
      TestPaths.orientd, "--uri", "xml:\(path)", "--socket", directory + "/s", "--state", directory + "/st",
    ])
    #expect(
      daemon.waitFor(
        "serving 'sensor offline' and looking again in 2 s, then further apart, up to a minute",
        inStderr: true),
      "\(daemon.stderr)")
    // The light, proximity and compass look says why it has no context too.
    #expect(
      daemon.waitFor(
        "light, proximity and compass sensors: cannot open the IIO context: refusing the IIO context xml:\(path)",
        inStderr: true),
      "\(daemon.stderr)")
    daemon.signal(SIGTERM)
    #expect(daemon.waitForExit() == 0)
  }
}
