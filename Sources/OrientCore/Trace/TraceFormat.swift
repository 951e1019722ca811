/// One sample of a trace: its time and the gravity vector in g, in the corrected frame.
package struct TraceSample: Equatable, Sendable {
  package var time: SampleTime
  package var gravity: Vector3

  /// Creates a sample.
  package init(time: SampleTime, gravity: Vector3) {
    self.time = time
    self.gravity = gravity
  }
}

/// A malformed trace, with the place it was found.
package struct TraceError: Error, Equatable, Sendable, CustomStringConvertible {
  /// The file name (or other source) the trace came from.
  package var source: String
  /// The 1-based line number.
  package var line: Int
  /// What is wrong.
  package var message: String

  package var description: String { "\(source):\(line): \(message)" }
}

/// Trace format version 1: a `# orientd-trace 1` line, then `t x y z` per line
/// (seconds; g; corrected frame). `#` comments and blank lines are ignored.
package enum TraceFormat {
  /// The first line of every version-1 trace.
  package static let header = "# orientd-trace 1"

  /// The latest time a trace may hold: 9999999999.999 s, about 316 years.
  ///
  /// Far beyond any recording, and low enough that every offset a replay computes from it
  /// (in nanoseconds, on top of the monotonic clock) fits in 64 bits. A time up to it is
  /// written back with three decimals as at most this, so a recorded trace always parses.
  package static let latestTime = SampleTime(microseconds: 9_999_999_999_999_000)

  /// The largest trace file orientd reads: 64 MiB, over two million samples (more than six
  /// hours at 100 Hz).
  ///
  /// Every sample is held in memory for the replay; a larger file, or one that never ends
  /// (`/dev/zero`), is refused instead of growing orientd without bound.
  package static let maximumFileBytes = 64 << 20

  /// Parses a whole trace; any malformed line fails the whole trace, so a replay
  /// never starts on a file it cannot finish.
  package static func parse(_ text: String, source: String) throws(TraceError) -> [TraceSample] {
    var text = text
    let result = text.withUTF8 { parse(bytes: $0, source: source) }
    return try result.get()
  }

  /// Parses a trace from its UTF-8 bytes, line by line, without building strings.
  package static func parse(bytes: UnsafeBufferPointer<UInt8>, source: String) -> Result<
    [TraceSample], TraceError
  > {
    guard !bytes.isEmpty else {
      return .failure(TraceError(source: source, line: 1, message: "empty file, expected '\(header)'"))
    }
    var samples: [TraceSample] = []
    var lineNumber = 0
    var previous: SampleTime?
    var lineStart = 0
    while lineStart <= bytes.count {
      var lineEnd = lineStart
      while lineEnd < bytes.count, bytes[lineEnd] != 0x0A { lineEnd += 1 }
      lineNumber += 1
      let line = trimmed(UnsafeBufferPointer(rebasing: bytes[lineStart..<lineEnd]))
      lineStart = lineEnd + 1
      if lineNumber == 1 {
        if let message = headerProblem(line) {
          return .failure(TraceError(source: source, line: 1, message: message))
        }
        continue
      }
      if line.isEmpty || line[0] == UInt8(ascii: "#") { continue }
      let sample: TraceSample
      switch parseSample(bytes: line) {
      case .success(let parsed): sample = parsed
      case .failure(let error):
        return .failure(TraceError(source: source, line: lineNumber, message: error.message))
      }
      if let previous, sample.time < previous {
        return .failure(
          TraceError(
            source: source, line: lineNumber,
            message:
              "time \(sample.time.formatted(decimals: 6)) goes back before \(previous.formatted(decimals: 6))"
          ))
      }
      previous = sample.time
      samples.append(sample)
    }
    return .success(samples)
  }

  private static func headerProblem(_ line: UnsafeBufferPointer<UInt8>) -> String? {
    let text = String(decoding: line, as: UTF8.self)
    guard text != header else { return nil }
    let words = text.split(separator: " ")
    if words.count == 3, words[0] == "#", words[1] == "orientd-trace" {
      return
        "unsupported trace version '\(String(words[2]).escapingControlCharacters)' (this orientd reads 1)"
    }
    return "not an orientd trace: expected '\(header)'"
  }

  private static func isBlank(_ byte: UInt8) -> Bool { byte == 0x20 || byte == 0x09 || byte == 0x0D }

  private static func trimmed(_ bytes: UnsafeBufferPointer<UInt8>) -> UnsafeBufferPointer<UInt8> {
    var start = 0
    var end = bytes.count
    while start < end, isBlank(bytes[start]) { start += 1 }
    while end > start, isBlank(bytes[end - 1]) { end -= 1 }
    return UnsafeBufferPointer(rebasing: bytes[start..<end])
  }

  /// Parses one sample line `t x y z`.
  static func parseSample(_ line: some StringProtocol) throws(ValueError) -> TraceSample {
    var text = String(line)
    return try text.withUTF8 { parseSample(bytes: trimmed($0)) }.get()
  }

  /// Parses one sample line `t x y z` from bytes without surrounding blanks.
  static func parseSample(bytes line: UnsafeBufferPointer<UInt8>) -> Result<TraceSample, ValueError> {
    var fields: [UnsafeBufferPointer<UInt8>] = []
    fields.reserveCapacity(4)
    var index = 0
    while index < line.count {
      while index < line.count, isBlank(line[index]) { index += 1 }
      let start = index
      while index < line.count, !isBlank(line[index]) { index += 1 }
      if index > start {
        guard fields.count < 4 else {
          return .failure(ValueError("expected 4 fields 't x y z', found more"))
        }
        fields.append(UnsafeBufferPointer(rebasing: line[start..<index]))
      }
    }
    guard fields.count == 4 else {
      return .failure(ValueError("expected 4 fields 't x y z', found \(fields.count)"))
    }
    // A field is quoted back in the error, escaped: a file's bytes never steer a terminal or
    // start a forged log line.
    func text(_ field: UnsafeBufferPointer<UInt8>) -> String {
      String(decoding: field, as: UTF8.self).escapingControlCharacters
    }
    guard let time = NumberParsing.seconds(bytes: fields[0]) else {
      return .failure(
        ValueError("bad time '\(text(fields[0]))' (expected non-negative seconds such as 1.250)"))
    }
    guard time <= latestTime else {
      return .failure(
        ValueError(
          "time '\(text(fields[0]))' is past the latest a trace may hold, \(latestTime.secondsText) s"))
    }
    var values = (0.0, 0.0, 0.0)
    for (axis, field) in zip(["x", "y", "z"], fields.dropFirst()) {
      guard let value = NumberParsing.finiteDouble(bytes: field) else {
        return .failure(ValueError("bad \(axis) value '\(text(field))' (expected a finite number in g)"))
      }
      switch axis {
      case "x": values.0 = value
      case "y": values.1 = value
      default: values.2 = value
      }
    }
    return .success(TraceSample(time: time, gravity: Vector3(values.0, values.1, values.2)))
  }

  /// Where samples appended after `last` start: one second after it, or 0 for an empty
  /// trace; nil when that is past `latestTime`, so nothing more can be appended.
  package static func continuation(after last: SampleTime?) -> SampleTime? {
    guard let last else { return .zero }
    let next = last + .seconds(1)
    return next <= latestTime ? next : nil
  }

  /// Formats a sample line without its newline, e.g. `1.250 0.0000 -1.0000 0.0000`.
  package static func line(for sample: TraceSample) -> String {
    let g = sample.gravity
    return sample.time.formatted(decimals: 3) + " "
      + DecimalFormatting.fixed(g.x, decimals: 4) + " "
      + DecimalFormatting.fixed(g.y, decimals: 4) + " "
      + DecimalFormatting.fixed(g.z, decimals: 4)
  }
}
