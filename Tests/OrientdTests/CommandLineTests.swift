import Foundation
import Testing

@Suite("orientd's command line", .scratch)
struct CommandLineTests {
  @Test("--help prints usage to stdout and exits 0")
  func help() throws {
    let result = try runToCompletion([TestPaths.orientd, "--help"])
    #expect(result.status == 0)
    #expect(result.stdout.hasPrefix("Usage: orientd"))
    #expect(result.stdout.contains("--mount-matrix"))
    #expect(result.stderr.isEmpty)
  }

  @Test("--version prints the version")
  func version() throws {
    let result = try runToCompletion([TestPaths.orientd, "--version"])
    #expect(result.status == 0)
    let words = result.stdout.split(separator: " ")
    #expect(words.first == "orientd" && words.count == 2, "\(result.stdout)")
    // MAJOR.MINOR.PATCH
    let parts = words.last.map { $0.trimmingCharacters(in: .newlines).split(separator: ".") } ?? []
    #expect(parts.count == 3 && parts.allSatisfy { Int($0) != nil }, "\(result.stdout)")
  }

  @Test(
    "A bad option or value exits 64 with a message naming the option",
    arguments: [
      (["--frobnicate"], "unknown option '--frobnicate'"),
      (["--interval", "soon"], "--interval"),
      (["--threshold", "2"], "threshold"),
      (["--allowed", "sideways"], "--allowed"),
      (["--mount-matrix", "1,2,3"], "--mount-matrix"),
    ])
  func badOption(arguments: [String], mention: String) throws {
    let result = try runToCompletion([TestPaths.orientd] + arguments)
    #expect(result.status == 64)
    #expect(result.stderr.contains(mention))
    #expect(result.stderr.contains("Try 'orientd --help'."))
    #expect(result.stdout.isEmpty)
  }

  @Test("The demo plays in real time through the orientations until SIGTERM, then exits 0")
  func demo() throws {
    let process = try TestProcess([TestPaths.orientd, "--demo", "--dump"])
    let lines = process.waitForLines(4)
    // Normal is held from 0 to 1.9 s, still from the first sample: taken at the second, 0.1 s
    // (40 ms still). Then the turn samples (f, -(1 - f)) with f = i/11 start at 2.0 s; they leave
    // normal's band (tilt over 60 degrees, f > 0.634) at i = 7, 2.6 s, and, still moving, settle
    // by 2.8 s.
    #expect(
      lines == [
        "0.100 device normal", "0.100 orientation normal", "2.800 device left-up",
        "2.800 orientation left-up",
      ])
    process.signal(SIGTERM)
    #expect(process.waitForExit() == 0)
  }

  @Test("A real-time replay logs its changes, then keeps serving the last state until SIGINT")
  func realTimeReplay() throws {
    var trace = TraceBuilder(stepMilliseconds: 50)
    trace.hold(0, -1, 0, count: 4)
    trace.hold(-1, 0, 0, count: 4)
    let socket = try Scratch.current().path("orientd.sock")
    let process = try TestProcess([
      TestPaths.orientd, "--settle", "0", "--replay", try trace.write(), "--socket", socket,
    ])
    #expect(process.waitFor("finished; keeping the last state", inStderr: true))
    let log = process.stderr
    #expect(log.contains("info: device normal"))
    #expect(log.contains("info: orientation right-up"))
    // After the replay ended, orientd still answers with the last state.
    let state = try runToCompletion([TestPaths.orientctl, "--socket", socket, "get"])
    #expect(state.status == 0, "orientd must keep running after a replay: \(state.stderr)")
    #expect(
      completeLines(state.stdout) == [
        "sensor online", "device right-up", "orientation right-up", "lock off",
        "allowed normal,left-up,bottom-up,right-up", "mode unknown",
      ])
    process.signal(SIGINT)
    #expect(process.waitForExit() == 0)
    #expect(process.stdout.isEmpty)
  }
}
