import OrientCore

/// What the sampling thread tells the daemon's loop.
public enum SamplerEvent: Sendable {
  /// The sensor started or stopped delivering samples.
  case sensor(online: Bool, time: SampleTime)
  /// What the sensor's detector found: a device orientation change, or a sample the
  /// daemon asked for.
  case detected(Detector.Report)
  /// The attached sensor and how it is read, or nil once it is gone.
  case described(SensorDescription?)
  /// A replay reached its end.
  case finished
  /// Sampling cannot go on; the daemon exits with this failure.
  case failed(Failure)
}

/// What the daemon's loop tells the sampling thread.
public enum SamplerCommand: Sendable {
  /// New classifier tunables (the current orientation is kept).
  case settings(ClassifierSettings)
  /// Whether to send every sample, not only changes.
  case forwardSamples(Bool)
  /// Restore what was changed on the device and end the thread.
  case stop
}
