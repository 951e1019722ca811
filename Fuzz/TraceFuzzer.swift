// Fuzzes the trace parser on raw bytes, and replays what parses through a classifier into
// the tracker, as the daemon's Detector does.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzTrace(_ data: UnsafePointer<UInt8>, _ size: Int) -> Int32 {
  let bytes = UnsafeBufferPointer(start: data, count: size)
  guard case .success(let samples) = TraceFormat.parse(bytes: bytes, source: "fuzz.trace") else { return 0 }
  var classifier = OrientationClassifier()
  var tracker = OrientationTracker()
  var previous = SampleTime.zero
  for sample in samples {
    precondition(sample.time >= previous, "trace times never go back")
    previous = sample.time
    if classifier.add(sample.gravity, at: sample.time) { _ = tracker.setDevice(classifier.current) }
  }
  return 0
}
