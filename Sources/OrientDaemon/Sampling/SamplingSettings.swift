import OrientConfig
import OrientCore

/// What the sampling thread uses of orientd's options, taken from them here and nowhere else.
struct SamplingSettings: Equatable, Sendable {
  /// Where samples come from: an IIO sensor, a trace replayed, or the demo.
  var source: SampleSourceChoice
  /// The classifier's tunables at start (`SamplerCommand.settings` changes them later).
  var classifier: ClassifierSettings
  /// Whether iio-sensor-proxy's tilt is worked out: only the D-Bus service shows it.
  var reportsTilt: Bool
  /// The libiio context URI; nil means the local context.
  var uri: String?
  /// The device id, name or label that `--device` names, if any.
  var device: String?
  /// How the sensors are read (`--mode`).
  var mode: CapturePlan.Mode
  /// The poll interval while the device is handled.
  var interval: Duration
  /// The poll interval once the device rests.
  var restingInterval: Duration
  /// `--mount-matrix`, which applies to the sensor orientation comes from.
  var mountMatrix: Matrix3?

  /// The settings `options` give.
  init(_ options: DaemonOptions) {
    source = options.source
    classifier = options.settings
    reportsTilt = options.bus != .off
    uri = options.uri
    device = options.device
    switch options.captureMode {
    case .auto: mode = .auto
    case .poll: mode = .poll
    case .buffer: mode = .buffer
    }
    interval = options.interval
    restingInterval = options.restingInterval
    mountMatrix = options.mountMatrix
  }
}
