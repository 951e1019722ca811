/// The daemon's whole orientation state: classifier, screen policy and sensor status.
///
/// Every input returns the changes it caused, in publication order.
public struct OrientationTracker: Sendable {
  /// The device-orientation classifier.
  public private(set) var classifier: OrientationClassifier
  /// The screen policy (lock, allowed set, screen orientation).
  public private(set) var policy: ScreenPolicy
  /// Whether a sensor is delivering samples.
  public private(set) var sensorOnline = false

  /// Creates a tracker with the given tunables and policy.
  public init(settings: ClassifierSettings = .defaults, policy: ScreenPolicy = ScreenPolicy()) {
    self.classifier = OrientationClassifier(settings: settings)
    self.policy = policy
  }

  /// The current device orientation.
  public private(set) var device: DeviceOrientation?

  /// The current screen orientation.
  public var orientation: ScreenOrientation? { policy.orientation }

  /// The full state as changes, in protocol order: sensor, device, orientation, lock, allowed.
  public var snapshot: [StateChange] {
    [
      .sensor(online: sensorOnline), .device(device), .orientation(orientation),
      .lock(policy.lock), .allowed(policy.allowed),
    ]
  }

  /// Feeds one gravity sample in the corrected frame; a device change comes before the
  /// screen change it causes.
  public mutating func add(_ gravity: Vector3, at time: SampleTime) -> [StateChange] {
    guard classifier.add(gravity, at: time) else { return [] }
    return setDevice(classifier.current)
  }

  /// Takes a device orientation decided elsewhere (by a classifier on the sampling thread).
  public mutating func setDevice(_ newDevice: DeviceOrientation?) -> [StateChange] {
    guard newDevice != device else { return [] }
    device = newDevice
    return [.device(newDevice)] + policy.deviceChanged(to: newDevice)
  }

  /// Records whether the sensor is delivering samples.
  public mutating func setSensor(online: Bool) -> [StateChange] {
    guard online != sensorOnline else { return [] }
    sensorOnline = online
    return [.sensor(online: online)]
  }

  /// Applies new classifier tunables, keeping the current orientation.
  public mutating func update(settings: ClassifierSettings) {
    classifier.update(settings: settings)
  }

  /// Runs a screen-policy command and returns what it changed.
  public mutating func apply<E: Error>(
    _ command: (inout ScreenPolicy) throws(E) -> [StateChange]
  ) throws(E) -> [StateChange] {
    try command(&policy)
  }
}
