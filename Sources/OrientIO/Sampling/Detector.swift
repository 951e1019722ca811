import OrientCore
import OrientSystem

/// Classifies samples where they are read, on the sampling thread, so the daemon's loop
/// is woken only when the device orientation changes.
final class Detector {
  private var classifier: OrientationClassifier
  private let recorder: TraceRecorder?
  private let events: Mailbox<SamplerEvent>
  /// Whether every sample is also sent to the daemon.
  var forwardsSamples = false

  init(settings: ClassifierSettings, recorder: TraceRecorder?, events: Mailbox<SamplerEvent>) {
    classifier = OrientationClassifier(settings: settings)
    self.recorder = recorder
    self.events = events
  }

  /// Applies new tunables, keeping the current orientation.
  func update(settings: ClassifierSettings) { classifier.update(settings: settings) }

  /// Records, classifies and, on a change, reports one sample.
  func handle(_ sample: Sample) {
    recorder?.record(sample)
    if Log.isVerbose {
      let g = sample.gravity
      Log.debug(
        "sample \(sample.time.secondsText) \(DecimalFormatting.fixed(g.x, decimals: 3)) "
          + "\(DecimalFormatting.fixed(g.y, decimals: 3)) \(DecimalFormatting.fixed(g.z, decimals: 3)) "
          + "proposes \(orientationName(classifier.proposal(for: g)))")
    }
    if forwardsSamples { events.post(.sample(sample)) }
    if classifier.add(sample.gravity, at: sample.time) {
      events.post(.device(classifier.current, time: sample.time))
    }
  }
}
