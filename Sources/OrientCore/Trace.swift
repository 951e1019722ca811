/// One sample of a trace: its time and the gravity vector in g, in the corrected frame.
public struct TraceSample: Equatable, Sendable {
  public var time: SampleTime
  public var gravity: Vector3

  /// Creates a sample.
  public init(time: SampleTime, gravity: Vector3) {
    self.time = time
    self.gravity = gravity
  }
}

/// A malformed trace, with the place it was found.
public struct TraceError: Error, Equatable, Sendable, CustomStringConvertible {
  /// The file name (or other source) the trace came from.
  public var source: String
  /// The 1-based line number.
  public var line: Int
  /// What is wrong.
  public var message: String

  public var description: String { "\(source):\(line): \(message)" }
}

/// Trace format version 1: a `# orientd-trace 1` line, then `t x y z` per line
/// (seconds; g; corrected frame). `#` comments and blank lines are ignored.
public enum TraceFormat {
  /// The first line of every version-1 trace.
  public static let header = "# orientd-trace 1"

  /// Parses a whole trace; any malformed line fails the whole trace, so a replay
  /// never starts on a file it cannot finish.
  public static func parse(_ text: String, source: String) throws(TraceError) -> [TraceSample] {
    guard !text.isEmpty else {
      throw TraceError(source: source, line: 1, message: "empty file, expected '\(header)'")
    }
    var samples: [TraceSample] = []
    var lineNumber = 0
    var previous: SampleTime?
    for rawLine in text.split(separator: "\n", omittingEmptySubsequences: false) {
      lineNumber += 1
      if lineNumber == 1 {
        try checkHeader(rawLine, source: source)
        continue
      }
      let line = rawLine.trimmingSpaces
      if line.isEmpty || line.hasPrefix("#") { continue }
      let sample: TraceSample
      do {
        sample = try parseSample(line)
      } catch {
        throw TraceError(source: source, line: lineNumber, message: error.message)
      }
      if let previous, sample.time < previous {
        throw TraceError(
          source: source, line: lineNumber,
          message: "time \(sample.time.formatted(decimals: 6)) goes back before "
            + "\(previous.formatted(decimals: 6))")
      }
      previous = sample.time
      samples.append(sample)
    }
    return samples
  }

  private static func checkHeader(_ line: Substring, source: String) throws(TraceError) {
    let trimmed = line.trimmingSpaces
    guard trimmed != header else { return }
    let words = trimmed.split(separator: " ")
    if words.count == 3, words[0] == "#", words[1] == "orientd-trace" {
      throw TraceError(
        source: source, line: 1, message: "unsupported trace version '\(words[2])' (this orientd reads 1)")
    }
    throw TraceError(source: source, line: 1, message: "not an orientd trace: expected '\(header)'")
  }

  /// Parses one sample line `t x y z`.
  public static func parseSample(_ line: some StringProtocol) throws(ValueError) -> TraceSample {
    let fields = line.split(whereSeparator: { $0 == " " || $0 == "\t" })
    guard fields.count == 4 else {
      throw ValueError("expected 4 fields 't x y z', found \(fields.count)")
    }
    guard let time = NumberParsing.seconds(fields[0]) else {
      throw ValueError("bad time '\(fields[0])' (expected non-negative seconds such as 1.250)")
    }
    var values: [Double] = []
    for (axis, field) in zip(["x", "y", "z"], fields.dropFirst()) {
      guard let value = NumberParsing.finiteDouble(field) else {
        throw ValueError("bad \(axis) value '\(field)' (expected a finite number in g)")
      }
      values.append(value)
    }
    return TraceSample(time: time, gravity: Vector3(values[0], values[1], values[2]))
  }

  /// Formats a sample line without its newline, e.g. `1.250 0.0000 -1.0000 0.0000`.
  public static func line(for sample: TraceSample) -> String {
    let g = sample.gravity
    return sample.time.formatted(decimals: 3) + " "
      + DecimalFormatting.fixed(g.x, decimals: 4) + " "
      + DecimalFormatting.fixed(g.y, decimals: 4) + " "
      + DecimalFormatting.fixed(g.z, decimals: 4)
  }
}
