import OrientCore

/// The contract every sensor driver keeps, whatever its kind and capture path, as
/// iio-sensor-proxy's `drivers.h` has it: it is found (`SensorInventory` says which device
/// each kind is read from, and how, from what discovery saw), opened with a callback for what
/// it reads (its initializer), told whether anything needs it (`setNeeded`), and closed.
///
/// Needed, a driver reads and reports; not needed, it reads nothing, arms no timer and holds no
/// buffer open, so that the kernel driver or sensor hub may power the sensor down. Closed, it
/// has put the device back as it found it. Drivers run on the sampling thread's loop.
protocol SensorDriver: AnyObject {
  /// The kind it reads.
  var kind: SensorKind { get }
  /// How it reads, for `info` and doctor: `buffer intensity_both of iio:device3 (als) ...`.
  var summary: String { get }
  /// Reads while `needed`, and nothing at all otherwise.
  func setNeeded(_ needed: Bool)
  /// Stops reading for good and puts the device back.
  func close()
}

/// What a reading driver tells whoever opened it.
enum DriverReport: Equatable, Sendable {
  /// A value to publish (already past its model's filter).
  case value(ReadingValue)
  /// The device cannot be read any more (removed, or its reads fail): the driver has stopped.
  case lost(String)
}

/// How often a polled reading sensor is read, when its device does not say (`integration_time`).
enum ReadingIntervals {
  /// Light: iio-sensor-proxy's default, and what a light sensor's integration usually takes.
  static let light = Duration.milliseconds(800)
  /// The bounds of a light sensor's `integration_time` taken as its interval.
  static let lightRange = Duration.milliseconds(100)...Duration.seconds(5)
  /// Proximity: a face coming near during a call is seen within half a second.
  static let proximity = Duration.milliseconds(500)
  /// A polled compass.
  static let compass = Duration.milliseconds(500)
  /// A polled hinge sensor: the mode follows the hinge within half a second. Each read of a
  /// HID sensor hub's is a request to the hub, so not much more often.
  static let hinge = Duration.milliseconds(500)
  /// Apple's SMC light sensor: each read is a request to the SMC.
  static let hwmonLight = Duration.seconds(1)

  /// The interval for a polled `kind`, given the sensor's integration time in seconds, if any.
  static func interval(_ kind: SensorKind, integrationSeconds: Double?) -> Duration {
    switch kind {
    case .light:
      guard let seconds = integrationSeconds, seconds.isFinite, seconds > 0 else { return light }
      let wanted = Duration.milliseconds(Int64((seconds * 1000).rounded()))
      return min(max(wanted, lightRange.lowerBound), lightRange.upperBound)
    case .proximity: return proximity
    case .compass: return compass
    case .hinge: return hinge
    case .accelerometer: return .milliseconds(200)
    }
  }
}
