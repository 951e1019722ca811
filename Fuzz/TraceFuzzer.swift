// Fuzzes the trace parser on raw bytes, and replays what parses as the daemon does: through a
// classifier into the tracker, on a real-time replay schedule (looping, from a monotonic start
// taken from the input's last bytes), and back out through the recorder's formatting.
// Fuzz/trace.dict seeds times at the limits: the latest a trace may hold, one past it, and the
// values that overflowed 64 bits in nanoseconds.
public func fuzzTrace(_ data: UnsafePointer<UInt8>, _ size: Int) -> Int32 {
  let bytes = UnsafeBufferPointer(start: data, count: size)
  guard case .success(let samples) = TraceFormat.parse(bytes: bytes, source: "fuzz.trace") else { return 0 }
  var classifier = OrientationClassifier()
  var tracker = OrientationTracker()
  var previous = SampleTime.zero
  for sample in samples {
    precondition(sample.time >= previous, "trace times never go back")
    precondition(sample.time <= TraceFormat.latestTime, "a parsed time is never past the latest")
    previous = sample.time
    if classifier.classify(sample.gravity, at: sample.time).changed {
      _ = tracker.setDevice(classifier.current, at: sample.time)
    }
    // What the recorder writes parses back (times up to the latest round to at most it).
    let line = TraceFormat.line(for: sample)
    guard let reparsed = try? TraceFormat.parseSample(line) else {
      preconditionFailure("recorded line '\(line)' does not parse")
    }
    precondition(reparsed.time <= TraceFormat.latestTime)
    _ = sample.time.formatted(decimals: 6)
  }
  guard let first = samples.first else { return 0 }
  _ = TraceFormat.continuation(after: samples.last?.time)

  // A real-time replay looping with the trace's length; the input's last bytes say how far
  // into the replay the clock already is when the first wait is asked for.
  var elapsedBits: UInt64 = 0
  for byte in bytes.suffix(8) { elapsedBits = elapsedBits << 8 | UInt64(byte) }
  var elapsed = Duration.nanoseconds(Int64(truncatingIfNeeded: elapsedBits & UInt64(Int64.max)))
  let loopLength = Duration.microseconds(
    (samples.last?.time.microseconds ?? 0) &- first.time.microseconds &+ 1)
  let schedule = ReplaySchedule(firstTime: first.time, loopLength: loopLength)
  var lastDue = Duration.zero
  for pass: Int64 in [0, 1, 2, Int64.max / 2, Int64.max] {
    for sample in samples {
      let due = schedule.due(sample.time, pass: pass)
      // nil is "never": later than every time that is due.
      if let due {
        precondition(due >= lastDue, "a replay never schedules a sample before an earlier one")
        precondition(due >= .zero, "a replay never schedules a sample before its start")
        lastDue = due
      } else {
        lastDue = .nanoseconds(Int64.max)
      }
      // The event loop adds a wait to the real clock: bounded, it can never overflow there.
      if let wait = ReplaySchedule.wait(until: due, elapsed: elapsed) {
        precondition(wait > .zero && wait <= ReplaySchedule.longestWait)
        if let due { elapsed = due }
      }
      _ = sample.time.advanced(by: schedule.passOffset(pass: pass))
    }
  }
  return 0
}
