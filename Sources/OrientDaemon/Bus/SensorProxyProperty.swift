import OrientBus
import OrientCore

/// A property of iio-sensor-proxy's interface, as the service's state drives it: the
/// accelerometer's (`SensorProxyAccelerometer`) or a reading sensor's (`SensorProxyReadings`).
/// Its name is spelled for the bus only where it leaves the service: when the objects are
/// exported, and in `PropertiesChanged`.
enum SensorProxyProperty: Hashable, Sendable {
  case accelerometer(SensorProxyAccelerometer.Property)
  case reading(SensorProxyReadings.Property)

  /// The name clients know it by (`AccelerometerOrientation`).
  var name: String {
    switch self {
    case .accelerometer(let property): property.rawValue
    case .reading(let property): property.rawValue
    }
  }

  /// Its D-Bus type.
  var type: BusValueType {
    switch self {
    case .accelerometer(.hasAccelerometer), .reading(.hasAmbientLight), .reading(.hasProximity),
      .reading(.proximityNear), .reading(.hasCompass):
      .boolean
    case .accelerometer(.accelerometerOrientation), .accelerometer(.accelerometerTilt),
      .reading(.lightLevelUnit):
      .string
    case .reading(.lightLevel), .reading(.compassHeading): .double
    }
  }

  /// Whether it is on the compass object (else the main one).
  var onCompass: Bool {
    if case .reading(let property) = self { return property.onCompass }
    return false
  }
}
