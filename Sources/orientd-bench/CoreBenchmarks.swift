import OrientCore
import OrientDaemon
import OrientSystem

/// Keeps a value alive so the optimizer cannot drop the work that made it.
@inline(never)
func consume<T>(_ value: T) { withExtendedLifetime(value) {} }

/// Gravity vectors of a device turned slowly through every orientation, with some noise.
func sweepSamples(count: Int) -> [Vector3] {
  var state: UInt64 = 0x9E37_79B9_7F4A_7C15
  func noise() -> Double {
    state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
    return Double(Int64(bitPattern: state >> 11) % 1000) / 50_000
  }
  return (0..<count).map { index in
    let angle = Double(index) * 0.0005
    let tilt = Double(index) * 0.00013
    return Vector3(
      sinApprox(angle) * cosApprox(tilt) + noise(), -cosApprox(angle) * cosApprox(tilt) + noise(),
      sinApprox(tilt) + noise())
  }
}

/// Sine without libm's cost mattering here; good to 1e-6 over any range.
func sinApprox(_ x: Double) -> Double {
  var y = x.truncatingRemainder(dividingBy: 2 * Double.pi)
  if y > Double.pi { y -= 2 * Double.pi }
  if y < -Double.pi { y += 2 * Double.pi }
  var term = y
  var sum = y
  for n in 1..<12 {
    term *= -y * y / Double((2 * n) * (2 * n + 1))
    sum += term
  }
  return sum
}

func cosApprox(_ x: Double) -> Double { sinApprox(x + Double.pi / 2) }

/// The classifier the daemon's `Detector` runs, alone: samples per second, the median of
/// `runs` after a warm-up.
func classifierThroughput(runs: Int) -> Double {
  let samples = sweepSamples(count: 1_000_000)
  var results: [Double] = []
  for run in 0...runs {
    var classifier = OrientationClassifier()
    var changes = 0
    let start = MonotonicInstant.now
    var time = SampleTime.zero
    for pass in 0..<10 {
      for sample in samples {
        time = time + .milliseconds(5)
        if classifier.classify(sample, at: time).changed { changes += 1 }
      }
      consume(pass)
    }
    let elapsed = start.elapsed
    consume(changes)
    if run > 0 { results.append(Double(samples.count * 10) / elapsed.inSeconds) }
  }
  return median(results) ?? .nan
}

/// The path `orientd --dump --replay` runs: trace text parsed, each sample through the
/// daemon's `Detector` and its changes into the tracker; samples per second.
func replayThroughput(runs: Int) -> Double {
  let samples = sweepSamples(count: 200_000)
  var text = TraceFormat.header + "\n"
  for (index, sample) in samples.enumerated() {
    text +=
      TraceFormat.line(
        for: TraceSample(time: SampleTime(sinceOrigin: .milliseconds(5) * index), gravity: sample)) + "\n"
  }
  var results: [Double] = []
  for run in 0...runs {
    let start = MonotonicInstant.now
    // The trace is the benchmark's own: it failing to parse is a bug, and stops the run.
    guard let parsed = try? TraceFormat.parse(text, source: "bench") else {
      fatalError("bench trace did not parse")
    }
    var tracker = OrientationTracker()
    var changes = 0
    let detector = Detector(settings: .defaults, recorder: nil) { report in
      if case .device(let device, let time) = report { changes += tracker.setDevice(device, at: time).count }
    }
    for sample in parsed { detector.handle(Sample(sample)) }
    let elapsed = start.elapsed
    consume(changes)
    if run > 0 { results.append(Double(parsed.count) / elapsed.inSeconds) }
  }
  return median(results) ?? .nan
}
