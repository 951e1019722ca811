import Foundation
import Testing

@Suite("Replaying traces through orientd --dump", .scratch)
struct ReplayTests {
  /// An upright sweep from normal to left-up and back, 1 degree per 50 ms, at half-degree angles
  /// so no sample sits exactly on a band edge.
  static var sweep: TraceBuilder {
    var trace = TraceBuilder(stepMilliseconds: 50)
    for step in 0..<90 { trace.upright(degrees: Double(step) + 0.5) }
    for step in 0..<90 { trace.upright(degrees: 89.5 - Double(step)) }
    return trace
  }

  @Test("A sweep through 45 degrees switches near 60 degrees going out and near 30 coming back")
  func sweepBothWays() throws {
    // Forward, 60.5 degrees (t = 3.00 s) is the first to leave normal's band (cos < 0.5).
    // Back, 29.5 degrees (t = 7.50 s) is the first below left-up's band. The sweep turns a
    // degree every 50 ms, so a sample moves (3 degrees from the last one that did) every
    // 150 ms: 60.5 and 29.5 degrees both moved, and the next sample, 50 ms later and a degree
    // on, finds the device still for 40 ms and more: each change is taken 50 ms after it was
    // proposed. The first sample (t = 0) is still at the second.
    #expect(
      try dumpReplay(Self.sweep) == [
        "0.050 device normal", "0.050 orientation normal",
        "3.050 device left-up", "3.050 orientation left-up",
        "7.550 device normal", "7.550 orientation normal",
      ])
  }

  @Test("With still off, the same sweep settles 200 ms after each proposal, the settle time alone")
  func sweepSettleOnly() throws {
    #expect(
      try dumpReplay(Self.sweep, ["--still", "off"]) == [
        "0.200 device normal", "0.200 orientation normal",
        "3.200 device left-up", "3.200 orientation left-up",
        "7.700 device normal", "7.700 orientation normal",
      ])
    // A settle time given alone keeps its meaning: the same.
    #expect(
      try dumpReplay(Self.sweep, ["--settle", "200"]) == (try dumpReplay(Self.sweep, ["--still", "off"])))
  }

  @Test("Without hysteresis the same sweep switches where a component crosses the 0.6 g threshold")
  func sweepWithoutHysteresis() throws {
    // normal holds while cos >= 0.6 (up to 53.13 degrees): 53.5 degrees is at t = 2.65 s.
    // Back, left-up holds while sin >= 0.6 (down to 36.87): 36.5 degrees is at t = 4.50 + 53 * 0.05 = 7.15 s.
    #expect(
      try dumpReplay(Self.sweep, ["--hysteresis", "0", "--settle", "0"]) == [
        "0.000 device normal", "0.000 orientation normal",
        "2.650 device left-up", "2.650 orientation left-up",
        "7.150 device normal", "7.150 orientation normal",
      ])
  }

  @Test("Lying flat gives face-up with the screen undefined; picking it up turns it normal")
  func flatThenPickedUp() throws {
    var trace = TraceBuilder(stepMilliseconds: 100)
    trace.hold(0, 0, -1, count: 21)  // 0.0 ... 2.0 s flat
    for step in 1...10 { trace.backward(degrees: 90 - 9 * Double(step)) }  // 2.1 ... 3.0 s
    trace.hold(0, -1, 0, count: 10)
    // Face-up holds down to 30 degrees from upright; 27 degrees at t = 2.7 s proposes normal.
    // The device moves 9 degrees a sample until 3.0 s, never still, but it points squarely into
    // normal (nothing sideways in the screen's plane), so normal would be taken 40 ms later,
    // at the next sample; but it lay flat (81 degrees at 2.1 s, the last flat sample) and the
    // flat grace holds a new screen orientation until 2.85 s: the sample after. With still
    // off it settles 200 ms after the proposal, after the grace too. Face-up, still from the
    // first sample, is taken at the second.
    #expect(
      try dumpReplay(trace) == [
        "0.100 device face-up",
        "2.900 device normal", "2.900 orientation normal",
      ])
    #expect(
      try dumpReplay(trace, ["--flat-grace", "0"]) == [
        "0.100 device face-up",
        "2.800 device normal", "2.800 orientation normal",
      ])
    #expect(
      try dumpReplay(trace, ["--still", "off"]) == [
        "0.200 device face-up",
        "2.900 device normal", "2.900 orientation normal",
      ])
  }

  @Test("A shake burst, even one passing through left-up, changes nothing")
  func shakeBurst() throws {
    var trace = TraceBuilder(stepMilliseconds: 20)
    trace.hold(0, -1, 0, count: 50)
    let burst: [(Double, Double, Double)] = [
      (1.8, 0, 0), (0, 1.7, 0.3), (-1.5, -0.2, 0), (1, 0, 0), (0.2, 2.1, 0),
    ]
    for index in 0..<100 {
      let (x, y, z) = burst[index % burst.count]
      trace.add(x, y, z)
    }
    trace.hold(0, -1, 0, count: 50)
    // Normal is taken at the third sample, still for 40 ms; the burst takes nothing.
    #expect(try dumpReplay(trace) == ["0.040 device normal", "0.040 orientation normal"])
  }

  @Test("The same burst with the shake gate opened wide lets left-up through")
  func shakeGateMatters() throws {
    var trace = TraceBuilder(stepMilliseconds: 20)
    trace.hold(0, -1, 0, count: 50)
    trace.hold(1.8, 0, 0, count: 50)
    let lines = try dumpReplay(trace, ["--shake-tolerance", "1"])
    // Held from 1.0 s: still 40 ms later.
    #expect(lines.contains("1.040 device left-up"), "\(lines)")
  }

  @Test("A slow tilt back to nearly flat turns the device face-up but leaves the screen alone")
  func slowTiltToFlat() throws {
    var trace = TraceBuilder(stepMilliseconds: 100)
    trace.hold(0, -1, 0, count: 10)  // 0.0 ... 0.9 s upright
    for step in 0..<80 { trace.backward(degrees: Double(step) + 0.5) }  // 1.0 ... 8.9 s
    for _ in 0..<20 { trace.backward(degrees: 80) }
    // 60.5 degrees at t = 7.0 s is the first to leave normal's band, and moved (3 degrees since
    // the last sample that did, at 6.7 s); the device is still 100 ms later: face-up at 7.1 s.
    #expect(
      try dumpReplay(trace) == ["0.100 device normal", "0.100 orientation normal", "7.100 device face-up"])
  }

  @Test("Orientations outside --allowed change the device but not the screen")
  func allowedSet() throws {
    var trace = TraceBuilder(stepMilliseconds: 100)
    trace.hold(0, -1, 0, count: 5)
    trace.hold(0, 1, 0, count: 5)
    trace.hold(1, 0, 0, count: 5)
    #expect(
      try dumpReplay(trace, ["--settle", "0", "--allowed", "normal,left-up"]) == [
        "0.000 device normal", "0.000 orientation normal",
        "0.500 device bottom-up",
        "1.000 device left-up", "1.000 orientation left-up",
      ])
  }

  @Test("A higher threshold widens the dead zone")
  func thresholdOption() throws {
    var trace = TraceBuilder(stepMilliseconds: 100)
    trace.upright(degrees: 35)  // normal component 0.82
    trace.upright(degrees: 0)
    #expect(
      try dumpReplay(trace, ["--settle", "0", "--threshold", "0.9"]) == [
        "0.100 device normal", "0.100 orientation normal",
      ])
  }

  @Test("Recording a replay writes a trace that replays to the same events, and appends after its end")
  func recordAndReplay() throws {
    let recorded = try Scratch.current().path("recorded.trace")
    let original = try dumpReplay(Self.sweep, ["--record", recorded])
    let text = try String(contentsOfFile: recorded, encoding: .utf8)
    #expect(text.hasPrefix("# orientd-trace 1\n0.000 0.0087 -1.0000 0.0000\n"))
    let replayed = try runToCompletion([TestPaths.orientd, "--dump", "--replay", recorded])
    #expect(replayed.status == 0)
    #expect(replayed.stdout.split(separator: "\n").map(String.init) == original)

    _ = try dumpReplay(Self.sweep, ["--record", recorded])
    let appended = try String(contentsOfFile: recorded, encoding: .utf8).split(separator: "\n")
    #expect(appended.count == 1 + 2 * 180)
    #expect(appended.filter { $0.hasPrefix("#") }.count == 1)
    #expect(appended[181].hasPrefix("9.950 "))  // 8.95 s, the last sample, plus one second
  }

  @Test("Recording refuses to append to a file that is not a trace")
  func recordRefusesForeignFile() throws {
    let path = try Scratch.current().path("notes.txt")
    try "shopping list\n".write(toFile: path, atomically: true, encoding: .utf8)
    let result = try runToCompletion([
      TestPaths.orientd, "--dump", "--replay", try Self.sweep.write(), "--record", path,
    ])
    #expect(result.status == 65)
    #expect(result.stderr.contains("refusing to append to \(path)"))
    #expect(try String(contentsOfFile: path, encoding: .utf8) == "shopping list\n")
  }

  @Test("A malformed trace exits 65 naming file and line, before any event is printed")
  func malformedTrace() throws {
    let path = try Scratch.current().path("bad.trace")
    try "# orientd-trace 1\n0.0 0 -1 0\n0.1 0 -1 0\n0.2 0 oops 0\n".write(
      toFile: path, atomically: true, encoding: .utf8)
    let result = try runToCompletion([TestPaths.orientd, "--dump", "--settle", "0", "--replay", path])
    #expect(result.status == 65)
    #expect(result.stderr.contains("\(path):4: bad y value 'oops'"))
    #expect(result.stdout.isEmpty)
  }

  @Test("A missing trace exits 66")
  func missingTrace() throws {
    let path = try Scratch.current().path("missing.trace")
    let result = try runToCompletion([TestPaths.orientd, "--dump", "--replay", path])
    #expect(result.status == 66)
    #expect(result.stderr.contains(path))
  }

  @Test("A reader that goes away ends a dump quietly with status 0")
  func closedOutput() throws {
    let bash = try #require(TestPaths.which("bash"))
    let arguments = try TestPaths.isolated(
      orientdArguments: ["--dump", "--replay", try Self.sweep.write()], in: Scratch.current())
    let result = try runToCompletion(
      [bash, "-c", "set -o pipefail; \"$0\" \"$@\" | head -1", TestPaths.orientd] + arguments)
    #expect(result.status == 0)
    #expect(result.stdout == "0.050 device normal\n")
    #expect(result.stderr.isEmpty)
  }

  @Test("A live dump ends when its reader goes away, though nothing changes after the first line")
  func closedOutputWhileStill() throws {
    let bash = try #require(TestPaths.which("bash"))
    var trace = TraceBuilder(stepMilliseconds: 10)
    trace.add(0, -1, 0)
    // Serving the socket makes the replay live: after its one sample orientd waits for more.
    let arguments = try TestPaths.isolated(
      orientdArguments: [
        "--dump", "--settle", "0", "--replay", try trace.write(), "--socket", Scratch.current().path("s"),
      ],
      in: Scratch.current())
    let result = try runToCompletion(
      [bash, "-c", "set -o pipefail; \"$0\" \"$@\" | head -1", TestPaths.orientd] + arguments)
    #expect(result.status == 0, "\(result.stderr)")
    #expect(result.stdout == "0.000 device normal\n")
  }
}
