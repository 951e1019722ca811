import Testing

@testable import OrientCore

@Suite("Reading and writing trace files")
struct TraceFormatTests {
  @Test("A trace parses into timed samples, skipping comments and blank lines")
  func parses() throws {
    let text = """
      # orientd-trace 1
      # recorded on a test bench

      0.000 0 -1 0
      0.25\t0.5 -0.5 0.7
        1.000 1.0 0.0 0.0  
      """
    let samples = try TraceFormat.parse(text, source: "t.trace")
    #expect(samples.count == 3)
    #expect(samples[1].time == SampleTime(milliseconds: 250))
    #expect(samples[1].gravity == Vector3(0.5, -0.5, 0.7))
    #expect(samples[2].gravity == Vector3(1, 0, 0))
  }

  @Test(
    "A malformed trace is an error naming file and line",
    arguments: [
      ("0 0 -1 0\n", "t.trace:1: not an orientd trace"),
      ("", "t.trace:1: empty file"),
      ("# orientd-trace 2\n", "t.trace:1: unsupported trace version '2'"),
      ("# orientd-trace 1\n0 0 -1\n", "t.trace:2: expected 4 fields"),
      ("# orientd-trace 1\n0 0 -1 0\n1 0 x 0\n", "t.trace:3: bad y value 'x'"),
      ("# orientd-trace 1\n-1 0 -1 0\n", "t.trace:2: bad time '-1'"),
      ("# orientd-trace 1\n1 0 -1 0\n\n0.5 0 -1 0\n", "t.trace:4: time 0.500000 goes back"),
      ("# orientd-trace 1\n1 0 -1 inf\n", "t.trace:2: bad z value 'inf'"),
      ("# orientd-trace 1\n1e3 0 -1 0\n", "t.trace:2: bad time '1e3'"),
    ])
  func rejects(text: String, expected: String) {
    #expect {
      try TraceFormat.parse(text, source: "t.trace")
    } throws: { error in
      (error as? TraceError)?.description.hasPrefix(expected) == true
    }
  }

  @Test("A header-only trace has no samples")
  func headerOnly() throws {
    #expect(try TraceFormat.parse("# orientd-trace 1\n", source: "t").isEmpty)
  }

  @Test("A formatted sample line parses back to the same sample")
  func roundTrip() throws {
    let sample = TraceSample(time: SampleTime(microseconds: 12_345_000), gravity: Vector3(0.25, -0.9688, 0))
    let line = TraceFormat.line(for: sample)
    #expect(line == "12.345 0.2500 -0.9688 0.0000")
    #expect(try TraceFormat.parseSample(line) == sample)
  }
}
