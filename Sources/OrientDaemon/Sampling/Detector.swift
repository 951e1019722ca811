import OrientCore
import OrientSystem

/// The one classification path: every sample of a sensor, live or replayed, goes through the
/// `Detector` of that sensor, which records it, classifies it with the sensor's classifier
/// and reports what changed.
///
/// On the sampling thread its reports go to the daemon's loop through a mailbox, so the loop
/// wakes only when the device orientation changes; `--dump --replay` calls it directly.
package final class Detector {
  /// What the detector reports.
  package enum Report: Sendable {
    /// The device orientation changed at the sample taken at `time`.
    case device(DeviceOrientation?, time: SampleTime)
    /// A sample, reported only while `forwardsSamples` is set.
    case sample(Sample)
    /// iio-sensor-proxy's tilt changed, reported only while `reportsTilt` is set.
    case tilt(AccelerometerTilt)
  }

  /// The sensor that samples come from, named in the advice given when their steady magnitude
  /// is far from 1 g.
  struct Sensor: Sendable {
    /// A one-line identity, e.g. `iio:device0 (accel_3d)`.
    var summary: String
    /// Each axis's scale (x, y, z) and the file it came from, nil when none was found.
    var scales: [(value: Double, file: String?)]

    /// A sensor named `summary` whose axes (x, y, z) have `scales`.
    init(summary: String, scales: [(value: Double, file: String?)]) {
      self.summary = summary
      self.scales = scales
    }
  }

  private var classifier: OrientationClassifier
  private let recorder: TraceRecorder?
  private let report: (Report) -> Void
  /// Whether every sample is also reported, not only changes.
  var forwardsSamples = false
  /// Whether changes of `AccelerometerTilt` are reported (for the D-Bus service).
  var reportsTilt = false
  private var tilt = AccelerometerTilt.undefined
  /// The sensor samples come from now; nil for replays. Setting it starts measuring the
  /// steady magnitude afresh: a divisor learned from an earlier sensor (or from before its
  /// scale was corrected) must not hide the new one's first samples. A sensor with an axis
  /// that has no scale is classified by direction until its magnitude is learned.
  var sensor: Sensor? {
    didSet {
      classifier.forgetSteadyMagnitude(scaleKnown: sensor?.scales.allSatisfy { $0.file != nil } ?? true)
      tilt = .undefined
    }
  }

  /// A detector with `settings` that appends every sample to `recorder` and passes what it
  /// finds to `report`.
  package init(settings: ClassifierSettings, recorder: TraceRecorder?, report: @escaping (Report) -> Void) {
    classifier = OrientationClassifier(settings: settings)
    self.recorder = recorder
    self.report = report
  }

  /// Applies new tunables, keeping the current orientation.
  func update(settings: ClassifierSettings) { classifier.update(settings: settings) }

  /// The device orientation held now (nil: undefined).
  var current: DeviceOrientation? { classifier.current }

  /// When the change the classifier proposes becomes current if the samples until then agree;
  /// nil while nothing is pending. A polled sensor is polled faster until then (`PollPace`).
  var settlesAt: SampleTime? { classifier.settlesAt }

  /// The time of the last sample handled, nil before the first.
  private(set) var lastSampleTime: SampleTime?

  /// Called with a sample's time when it made the orientation current after `resume`.
  var fresh: ((SampleTime) -> Void)?

  /// Sampling resumes after a pause: the next sample the gate takes decides the orientation
  /// at once (`OrientationClassifier.adoptNextProposal`), and `fresh` is then called, after any
  /// change it made has been reported.
  func resume() { classifier.adoptNextProposal() }

  /// The sensor sent nothing since the last sample until `time` (it reports on change, and a
  /// report period has passed): decides a pending change as that sample would again, and
  /// reports a change it makes.
  func quiet(until time: SampleTime) {
    guard classifier.quiet(until: time) else { return }
    Log.debug(
      "no sample since the last: \(orientationName(classifier.current)) is current at \(time.secondsText)")
    report(.device(classifier.current, time: time))
  }

  /// Records, classifies and, on a change, reports one sample.
  package func handle(_ sample: Sample) {
    recorder?.record(sample)
    lastSampleTime = sample.time
    let adopting = classifier.isAdopting
    let step = classifier.classify(sample.gravity, at: sample.time)
    if let change = step.magnitude { log(change) }
    if Log.isVerbose { Log.debug(describe(sample, step.verdict)) }
    if forwardsSamples { report(.sample(sample)) }
    // The tilt of a shaken device means nothing: like the orientation, it takes only samples
    // the magnitude gate lets through.
    if reportsTilt, case .proposed = step.verdict {
      let newTilt = AccelerometerTilt(gravity: sample.gravity)
      if newTilt != tilt {
        tilt = newTilt
        report(.tilt(newTilt))
      }
    }
    if step.changed {
      report(.device(classifier.current, time: sample.time))
    }
    if adopting, !classifier.isAdopting {
      Log.debug(
        "sampling resumed: \(orientationName(classifier.current)) is current at \(sample.time.secondsText)")
      fresh?(sample.time)
    }
  }

  /// The `--verbose` line for a sample: what it proposed, or that the gate rejected it.
  private func describe(_ sample: Sample, _ verdict: OrientationClassifier.Verdict) -> String {
    let g = sample.gravity
    let line =
      "sample \(sample.time.secondsText) \(DecimalFormatting.fixed(g.x, decimals: 3)) "
      + "\(DecimalFormatting.fixed(g.y, decimals: 3)) \(DecimalFormatting.fixed(g.z, decimals: 3)) "
    let divisor = classifier.magnitudeDivisor
    let divided = divisor.map { "divided by \(Self.magnitudeText($0)) g" }
    switch verdict {
    case .proposed(let orientation):
      let how = classifier.classifiesByDirection ? "by its direction alone: no scale" : divided
      return line + "proposes \(orientationName(orientation))" + (how.map { " (\($0))" } ?? "")
    case .rejected(let magnitude):
      let measured = DecimalFormatting.fixed(g.magnitude, decimals: 3)
      let after = divided.map { ", \(DecimalFormatting.fixed(magnitude, decimals: 3)) once \($0)" } ?? ""
      return line + "rejected by the magnitude gate (magnitude \(measured) g\(after))"
    }
  }
}
