import Testing

@testable import OrientCore

@Suite("Times and text at the limits of what a trace file may hold")
struct TraceLimitTests {
  @Test(
    "A time past the latest a trace may hold fails the trace at its line",
    arguments: ["18446744073.8", "10000000000", "9999999999.9995", "999999999999.999999"])
  func timePastTheLatest(time: String) {
    let text = "# orientd-trace 1\n0 0 -1 0\n\(time) 0 -1 0\n"
    #expect {
      try TraceFormat.parse(text, source: "t.trace")
    } throws: { error in
      (error as? TraceError)?.description
        == "t.trace:3: time '\(time)' is past the latest a trace may hold, 9999999999.999 s"
    }
  }

  @Test("The latest time parses, and is written back as itself")
  func latestTime() throws {
    let samples = try TraceFormat.parse("# orientd-trace 1\n9999999999.999 0 -1 0\n", source: "t")
    #expect(samples.map(\.time) == [TraceFormat.latestTime])
    let line = TraceFormat.line(for: samples[0])
    #expect(line == "9999999999.999 0.0000 -1.0000 0.0000")
    #expect(try TraceFormat.parseSample(line) == samples[0])
  }

  @Test("Appending after the latest time is impossible; after anything earlier it is one second on")
  func continuation() {
    #expect(TraceFormat.continuation(after: nil) == .zero)
    #expect(
      TraceFormat.continuation(after: SampleTime(microseconds: 5)) == SampleTime(microseconds: 1_000_005))
    #expect(TraceFormat.continuation(after: TraceFormat.latestTime) == nil)
    #expect(TraceFormat.continuation(after: SampleTime(microseconds: .max)) == nil)
  }

  @Test("Control characters from the file are escaped in the error that quotes them")
  func escapedFields() {
    let text = "# orientd-trace 1\n1 0 \u{1B}[2J 0\n"
    #expect {
      try TraceFormat.parse(text, source: "t.trace")
    } throws: { error in
      (error as? TraceError)?.description
        == "t.trace:2: bad y value '\\x1b[2J' (expected a finite number in g)"
    }
  }

  @Test("Times at the ends of 64 bits format and move without trapping")
  func extremeTimes() {
    #expect(SampleTime(microseconds: .max).secondsText == "9223372036854.776")
    #expect(SampleTime(microseconds: .min).secondsText == "-9223372036854.776")
    #expect(SampleTime(microseconds: .max).formatted(decimals: 6) == "9223372036854.775807")
    #expect(SampleTime(microseconds: 1_500_000).formatted(decimals: 9) == "1.500000")
    #expect(SampleTime(microseconds: .max).advanced(by: .microseconds(1)) == SampleTime(microseconds: .max))
    #expect(SampleTime(microseconds: .min).advanced(by: .microseconds(-1)) == SampleTime(microseconds: .min))
    #expect(SampleTime(microseconds: 1).advanced(by: .microseconds(2)) == SampleTime(microseconds: 3))
  }
}
