import OrientCore
import Testing

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

@Suite("Parsing and printing numbers")
struct NumberTests {
  @Test("Decimal seconds become exact microseconds")
  func seconds() {
    #expect(NumberParsing.seconds("1.5") == SampleTime(microseconds: 1_500_000))
    #expect(NumberParsing.seconds("0.0000004") == SampleTime(microseconds: 0))
    #expect(NumberParsing.seconds("0.0000005") == SampleTime(microseconds: 1))
    #expect(NumberParsing.seconds("12") == SampleTime(microseconds: 12_000_000))
    #expect(NumberParsing.seconds("1.") == nil)
    #expect(NumberParsing.seconds(".5") == nil)
    #expect(NumberParsing.seconds("+1") == nil)
  }

  @Test(
    "Only plain finite decimals parse as numbers",
    arguments: ["nan", "inf", "-inf", "0x10", "1e", "--1", "1.2.3", "", " 1", "e5", "1e5e5"])
  func rejectsNonDecimal(text: String) {
    #expect(NumberParsing.finiteDouble(text) == nil)
  }

  @Test("Plain decimals parse, including signs and exponents")
  func acceptsDecimals() {
    #expect(NumberParsing.finiteDouble("-256") == -256)
    #expect(NumberParsing.finiteDouble("0.038307") == 0.038307)
    #expect(NumberParsing.finiteDouble("+1.5e-3") == 0.0015)
    #expect(NumberParsing.finiteDouble("1e400") == nil)
  }

  @Test("Fixed formatting rounds and never prints negative zero")
  func fixed() {
    #expect(DecimalFormatting.fixed(-0.98765, decimals: 3) == "-0.988")
    #expect(DecimalFormatting.fixed(-0.0001, decimals: 3) == "0.000")
    #expect(DecimalFormatting.fixed(2, decimals: 0) == "2")
    #expect(DecimalFormatting.fixed(0.05, decimals: 1) == "0.1")
    #expect(DecimalFormatting.signedFixed(0.5, decimals: 2) == "+0.50")
  }

  @Test("Times print as seconds with three decimals")
  func timeText() {
    #expect(SampleTime(microseconds: 1_234_567).secondsText == "1.235")
    #expect(SampleTime.zero.secondsText == "0.000")
    #expect(SampleTime(microseconds: 61_000_000).secondsText == "61.000")
  }
}

@Suite("The built-in demo")
struct DemoTraceTests {
  @Test("Replaying the demo reaches all six orientations and every screen orientation")
  func visitsEverything() {
    var classifier = OrientationClassifier()
    var tracker = OrientationTracker()
    var devices: Set<DeviceOrientation> = []
    var screens: Set<ScreenOrientation> = []
    for sample in DemoTrace.samples where classifier.add(sample.gravity, at: sample.time) {
      for change in tracker.setDevice(classifier.current) {
        if case .device(let device?) = change { devices.insert(device) }
        if case .orientation(let screen?) = change { screens.insert(screen) }
      }
    }
    #expect(devices == Set(DeviceOrientation.allCases))
    #expect(screens == Set(ScreenOrientation.allCases))
  }

  @Test("Demo samples are unit vectors at strictly increasing times")
  func wellFormed() {
    let samples = DemoTrace.samples
    #expect(samples.allSatisfy { abs($0.gravity.magnitude - 1) < 1e-9 })
    #expect(zip(samples, samples.dropFirst()).allSatisfy { $0.time < $1.time })
    #expect(DemoTrace.loopMicroseconds == samples.last!.time.microseconds + DemoTrace.stepMilliseconds * 1000)
  }
}

@Suite("Parsing sysfs bytes")
struct ByteParsingTests {
  func parse(_ text: String) -> Double? {
    Array(text.utf8).withUnsafeBufferPointer { NumberParsing.finiteDouble(bytes: $0) }
  }

  @Test("Integers, decimals and exponents parse, with sysfs's trailing newline")
  func accepts() {
    #expect(parse("-256\n") == -256)
    #expect(parse("  42 ") == 42)
    #expect(parse("+7") == 7)
    #expect(parse("0.038307\n") == 0.038307)
    #expect(parse("1.5e3") == 1500)
    #expect(parse("25E-2") == 0.25)
    #expect(parse("-0") == 0)
    let long = parse("123456789012345678901234") ?? 0
    #expect(abs(long / 1.2345678901234568e23 - 1) < 1e-15)
  }

  @Test(
    "Garbage, empty values and non-finite numbers are rejected",
    arguments: ["", "\n", "abc", "nan", "inf", "-", "1.2.3", "12abc", "1e", "0x10", "1e999", "--1", "."])
  func rejects(text: String) {
    #expect(parse(text) == nil)
  }

  @Test("Bytes parse to the same value as text for ordinary readings")
  func agreesWithTextParser() {
    for text in ["-256", "0.038307", "9.80665", "-1e-3", "1000000", "0.5"] {
      #expect(parse(text) == NumberParsing.finiteDouble(text), "\(text)")
    }
  }
}
