import OrientCore
import OrientIIO
import OrientSystem

/// The one classification path: every sample of a sensor, live or replayed, goes through the
/// `Detector` of that sensor, which records it, classifies it with the sensor's classifier
/// and reports what changed.
///
/// On the sampling thread its reports go to the daemon's loop through a mailbox, so the loop
/// wakes only when the device orientation changes; `--dump --replay` calls it directly.
public final class Detector {
  /// What the detector reports.
  public enum Report: Sendable {
    /// The device orientation changed at the sample taken at `time`.
    case device(DeviceOrientation?, time: SampleTime)
    /// A sample, reported only while `forwardsSamples` is set.
    case sample(Sample)
  }

  /// The sensor that samples come from, named in the advice given when their steady magnitude
  /// is far from 1 g.
  public struct Sensor: Sendable {
    /// A one-line identity, e.g. `iio:device0 (accel_3d)`.
    public var summary: String
    /// Each axis's scale (x, y, z) and the file it came from, nil when none was found.
    public var scales: [(value: Double, file: String?)]

    /// The sensor that `setup` reads.
    public init(_ setup: SensorSetup) {
      summary = setup.accelerometer.summary
      scales = setup.axes.map { ($0.calibration.scale, $0.scaleFile) }
    }
  }

  private var classifier: OrientationClassifier
  private let recorder: TraceRecorder?
  private let report: (Report) -> Void
  /// Whether every sample is also reported, not only changes.
  public var forwardsSamples = false
  /// The sensor samples come from now; nil for replays. Setting it starts measuring the
  /// steady magnitude afresh: a divisor learned from an earlier sensor (or from before its
  /// scale was corrected) must not hide the new one's first samples.
  public var sensor: Sensor? {
    didSet { classifier.forgetSteadyMagnitude() }
  }

  /// A detector with `settings` that appends every sample to `recorder` and passes what it
  /// finds to `report`.
  public init(settings: ClassifierSettings, recorder: TraceRecorder?, report: @escaping (Report) -> Void) {
    classifier = OrientationClassifier(settings: settings)
    self.recorder = recorder
    self.report = report
  }

  /// Applies new tunables, keeping the current orientation.
  public func update(settings: ClassifierSettings) { classifier.update(settings: settings) }

  /// Records, classifies and, on a change, reports one sample.
  public func handle(_ sample: Sample) {
    recorder?.record(sample)
    let step = classifier.classify(sample.gravity, at: sample.time)
    if let change = step.magnitude { log(change) }
    if Log.isVerbose { Log.debug(describe(sample, step.verdict)) }
    if forwardsSamples { report(.sample(sample)) }
    if step.changed {
      report(.device(classifier.current, time: sample.time))
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
      return line + "proposes \(orientationName(orientation))" + (divided.map { " (\($0))" } ?? "")
    case .rejected(let magnitude):
      let measured = DecimalFormatting.fixed(g.magnitude, decimals: 3)
      let after = divided.map { ", \(DecimalFormatting.fixed(magnitude, decimals: 3)) once \($0)" } ?? ""
      return line + "rejected by the magnitude gate (magnitude \(measured) g\(after))"
    }
  }

  private func log(_ change: SteadyMagnitude.Change) {
    let seconds = SteadyMagnitude.steadyMicroseconds / 1_000_000
    let who = sensor.map { "\($0.summary): its samples" } ?? "samples"
    switch change {
    case .dividing(let magnitude):
      let measured = Self.magnitudeText(magnitude)
      Log.warning(
        "\(who) have held a steady \(measured) g for \(seconds) s instead of 1 g, so each fails the "
          + "magnitude gate; \(scaleAdvice(magnitude)); classifying them divided by \(measured) g "
          + "until they measure 1 g again")
    case .stoppedDividing(let magnitude):
      Log.info(
        "\(who) hold a steady \(Self.magnitudeText(magnitude)) g again: the scale is right now; "
          + "classifying them as they are")
    case .nearZero(let magnitude):
      Log.warning(
        "\(who) have held a steady \(Self.magnitudeText(magnitude)) g for \(seconds) s: there is no "
          + "gravity to classify; is the sensor working"
          + (sensor.map { ", and its scale (\(Self.scalesText($0.scales))) right?" } ?? "?"))
    }
  }

  /// The likely cause of a steady `magnitude` far from 1 g: the scale, with what would give 1 g.
  private func scaleAdvice(_ magnitude: Double) -> String {
    guard let sensor else { return "a wrong scale is the likely cause" }
    let right = sensor.scales.map { ($0.value / magnitude, $0.file) }
    let plural = Set(sensor.scales.map { "\($0.value) \($0.file ?? "")" }).count > 1
    let reported = Self.scalesText(sensor.scales)
    let wanted = Self.scalesText(right, reading: true)
    return plural
      ? "the scales it reports, \(reported), are likely wrong: \(wanted) would give 1 g"
      : "the scale it reports, \(reported), is likely wrong: \(wanted) would give 1 g"
  }

  /// Scales as `0.995982 (in_accel_scale)`, or per axis when they differ; `reading` leaves out
  /// the files (for scales computed, not read).
  private static func scalesText(_ scales: [(value: Double, file: String?)], reading: Bool = false) -> String
  {
    let parts = scales.map { scale in
      let value = reading ? DecimalFormatting.significant(scale.value, digits: 5) : "\(scale.value)"
      return reading ? value : "\(value) (\(scale.file ?? "none, 1.0 assumed"))"
    }
    guard Set(parts).count > 1, parts.count == 3 else { return parts.first ?? "" }
    return zip(["x", "y", "z"], parts).map { "\($0) \($1)" }.joined(separator: ", ")
  }

  private static func magnitudeText(_ magnitude: Double) -> String {
    DecimalFormatting.significant(magnitude, digits: 4)
  }
}
