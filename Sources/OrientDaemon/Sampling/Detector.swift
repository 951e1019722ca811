import OrientCore
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

  private var classifier: OrientationClassifier
  private let recorder: TraceRecorder?
  private let report: (Report) -> Void
  /// Whether every sample is also reported, not only changes.
  public var forwardsSamples = false

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
    if Log.isVerbose {
      let g = sample.gravity
      Log.debug(
        "sample \(sample.time.secondsText) \(DecimalFormatting.fixed(g.x, decimals: 3)) "
          + "\(DecimalFormatting.fixed(g.y, decimals: 3)) \(DecimalFormatting.fixed(g.z, decimals: 3)) "
          + "proposes \(orientationName(classifier.proposal(for: g)))")
    }
    if forwardsSamples { report(.sample(sample)) }
    if classifier.add(sample.gravity, at: sample.time) {
      report(.device(classifier.current, time: sample.time))
    }
  }
}
