// Fuzzes the trace parser on raw bytes, and replays what parses as the daemon does: through a
// classifier into the tracker, on a real-time replay schedule (looping, from a monotonic start
// taken from the input's last bytes), and back out through the recorder's formatting.
// Fuzz/trace.dict seeds times at the limits: the latest a trace may hold, one past it, and the
// values that overflowed 64 bits in nanoseconds.
@_cdecl("LLVMFuzzerTestOneInput")
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
    if classifier.add(sample.gravity, at: sample.time) { _ = tracker.setDevice(classifier.current) }
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

  // A real-time replay, starting anywhere on the monotonic clock, looping with the trace's length.
  var start: UInt64 = 0
  for byte in bytes.suffix(8) { start = start << 8 | UInt64(byte) }
  let loopLength = (samples.last?.time.microseconds ?? 0) - first.time.microseconds + 1
  let schedule = ReplaySchedule(
    startNanoseconds: start, firstTime: first.time, loopLengthMicroseconds: loopLength)
  var now = start
  var lastDue = start
  for pass: Int64 in [0, 1, 2, Int64.max / 2, Int64.max] {
    for sample in samples {
      let due = schedule.dueNanoseconds(of: sample.time, pass: pass)
      precondition(due >= lastDue, "a replay never schedules a sample before an earlier one")
      lastDue = due
      // The event loop adds a wait to the real clock: bounded, it can never overflow there.
      if let wait = ReplaySchedule.wait(until: due, now: now) {
        precondition(wait > 0 && wait <= ReplaySchedule.longestWaitNanoseconds)
        now = due
      }
      _ = sample.time.advanced(byMicroseconds: schedule.passOffsetMicroseconds(pass: pass))
    }
  }
  return 0
}
