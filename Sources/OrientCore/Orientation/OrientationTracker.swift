/// The daemon's whole orientation state: the device orientation, the screen policy and the
/// sensor status.
///
/// The device orientation comes from the classifier of the sensor that drives it, wherever
/// that runs; the tracker only takes its changes. Every input returns the changes it caused,
/// in publication order.
public struct OrientationTracker: Sendable {
  /// The screen policy (lock, allowed set, screen orientation).
  public private(set) var policy: ScreenPolicy
  /// Whether a sensor is delivering samples.
  public private(set) var sensorOnline = false

  /// Creates a tracker with an undefined device orientation and `policy`.
  public init(policy: ScreenPolicy = ScreenPolicy()) {
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

  /// Takes a new device orientation; its change comes before the screen change it causes.
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

  /// Runs a screen-policy command and returns what it changed.
  public mutating func apply<E: Error>(
    _ command: (inout ScreenPolicy) throws(E) -> [StateChange]
  ) throws(E) -> [StateChange] {
    try command(&policy)
  }
}
