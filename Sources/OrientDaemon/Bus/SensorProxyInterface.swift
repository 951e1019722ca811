import OrientBus
import OrientCore

/// The names and shape of iio-sensor-proxy's D-Bus interface, as its clients (GNOME Shell,
/// KDE, `monitor-sensor`) expect them; docs/iio-sensor-proxy-dbus.md has what was measured.
enum SensorProxyInterface {
  static let busName = "net.hadess.SensorProxy"
  static let path = "/net/hadess/SensorProxy"
  static let interface = "net.hadess.SensorProxy"
  static let compassPath = "/net/hadess/SensorProxy/Compass"
  static let compassInterface = "net.hadess.SensorProxy.Compass"

  /// The main object's properties, in iio-sensor-proxy's order (`AccelerometerTilt`, newer
  /// than iio-sensor-proxy 3.0, after the orientation).
  static let properties: [(name: String, type: BusValueType)] = [
    ("HasAccelerometer", .boolean), ("AccelerometerOrientation", .string), ("AccelerometerTilt", .string),
    ("HasAmbientLight", .boolean), ("LightLevelUnit", .string), ("LightLevel", .double),
    ("HasProximity", .boolean), ("ProximityNear", .boolean),
  ]
  static let compassProperties: [(name: String, type: BusValueType)] = [
    ("HasCompass", .boolean), ("CompassHeading", .double),
  ]

  /// The sensors whose Claim and Release methods live on the main object.
  static let mainSensors: [SensorProxyClaims.Sensor] = [.accelerometer, .light, .proximity]

  /// `ClaimAccelerometer`, `ReleaseAccelerometer`, ... for `sensors`.
  static func methods(_ sensors: [SensorProxyClaims.Sensor]) -> [String] {
    sensors.flatMap { ["Claim\($0.rawValue)", "Release\($0.rawValue)"] }
  }

  /// A method's meaning: whether it claims (else releases), and which sensor.
  static func claim(_ member: String) -> (claims: Bool, sensor: SensorProxyClaims.Sensor)? {
    for (prefix, claims) in [("Claim", true), ("Release", false)] where member.hasPrefix(prefix) {
      if let sensor = SensorProxyClaims.Sensor(rawValue: String(member.dropFirst(prefix.count))) {
        return (claims, sensor)
      }
    }
    return nil
  }

  /// The value of a property other than the accelerometer's: orientd has no light sensor,
  /// proximity sensor or compass, and reports them as iio-sensor-proxy does without them.
  static func absentSensorValue(_ name: String) -> BusValue {
    switch name {
    case "LightLevelUnit": .string("lux")
    case "LightLevel", "CompassHeading": .double(0)
    default: .boolean(false)
    }
  }
}
