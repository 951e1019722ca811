import Foundation
import Testing

/// Writes `text` as a trace file in the scratch directory and returns its path.
private func writeTrace(_ text: String) throws -> String {
  let path = try Scratch.current().makeDirectory("trace") + "/t.trace"
  try text.write(toFile: path, atomically: true, encoding: .utf8)
  return path
}

/// orientd replaying `trace` in real time and serving its socket; returns it and the socket.
private func realTimeReplay(_ trace: String) throws -> (TestProcess, String) {
  let directory = try Scratch.current().makeDirectory()
  let socket = directory + "/s"
  let daemon = try TestProcess([
    TestPaths.orientd, "--replay", trace, "--settle", "0", "--socket", socket, "--state", directory + "/st",
  ])
  return (daemon, socket)
}

@Suite("Crafted trace files", .scratch)
struct CraftedTraceTests {
  @Test(
    "A time at or past the limits of a trace replays or exits 65 naming file:line, never traps",
    arguments: [
      ("9999999999.999", true), ("9223372036.854775", true), ("0.0000005", true),
      ("18446744073.8", false), ("18446744073.709551", false), ("9999999999.9995", false),
      ("999999999999.999999", false),
    ])
  func limitTimes(time: String, replays: Bool) throws {
    let trace = try writeTrace("# orientd-trace 1\n0 0 -1 0\n\(time) 0 -1 0\n")
    let problem = "\(trace):3: time '\(time)' is past the latest a trace may hold, 9999999999.999 s"

    let dump = try runToCompletion([TestPaths.orientd, "--dump", "--replay", trace])
    #expect(dump.status == (replays ? 0 : 65), "\(dump.stderr)")
    #expect(dump.stderr.contains(problem) == !replays)

    let (daemon, socket) = try realTimeReplay(trace)
    if replays {
      // The second sample is due centuries away (or at once): orientd serves meanwhile.
      #expect(daemon.waitFor("info: orientation normal", inStderr: true), "\(daemon.stderr)")
      #expect(try TestClient(path: socket).linesBeforePong() == normalSnapshot)
      #expect(daemon.isRunning, "\(daemon.stderr)")
      daemon.signal(SIGTERM)
      #expect(daemon.waitForExit() == 0)
    } else {
      #expect(daemon.waitForExit() == 65)
      #expect(daemon.stderr.contains(problem), "\(daemon.stderr)")
    }
  }

  @Test("A trace file larger than 64 MiB is refused with exit 65 before anything is replayed")
  func oversizedTrace() throws {
    let trace = try writeTrace("# orientd-trace 1\n")
    // Sparse: the file reads as 65 MiB of zeros without taking the space.
    try #require(truncate(trace, 65 << 20) == 0)
    let result = try runToCompletion([TestPaths.orientd, "--dump", "--replay", trace])
    #expect(result.status == 65)
    #expect(
      result.stderr.contains("\(trace): larger than 64 MiB, the most orientd reads"), "\(result.stderr)")
  }

  @Test("Recording refuses to append to a trace whose last time leaves no room after it")
  func recordAfterTheLatest() throws {
    let recorded = try writeTrace("# orientd-trace 1\n9999999999.5 0 -1 0\n")
    let replayed = try writeTrace("# orientd-trace 1\n0 0 -1 0\n")
    let result = try runToCompletion([
      TestPaths.orientd, "--dump", "--replay", replayed, "--record", recorded,
    ])
    #expect(result.status == 65)
    #expect(result.stderr.contains("refusing to append to \(recorded): its last time leaves no room"))
    #expect(
      try String(contentsOfFile: recorded, encoding: .utf8) == "# orientd-trace 1\n9999999999.5 0 -1 0\n")
  }
}
