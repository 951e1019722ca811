import OrientCore

/// The names and shape of iio-sensor-proxy's D-Bus interface, as its clients (GNOME Shell,
/// KDE, `monitor-sensor`) expect them; docs/iio-sensor-proxy-dbus.md has what was measured.
enum SensorProxyInterface {
  static let busName = "net.hadess.SensorProxy"
  static let path = "/net/hadess/SensorProxy"
  static let interface = "net.hadess.SensorProxy"
  static let compassPath = "/net/hadess/SensorProxy/Compass"
  static let compassInterface = "net.hadess.SensorProxy.Compass"

  /// The main object's properties, in iio-sensor-proxy's order, which is the order of the
  /// models' cases (`AccelerometerTilt`, newer than iio-sensor-proxy 3.0, after the orientation).
  static let properties: [SensorProxyProperty] =
    SensorProxyAccelerometer.Property.allCases.map(SensorProxyProperty.accelerometer)
    + SensorProxyReadings.Property.allCases.filter { !$0.onCompass }.map(SensorProxyProperty.reading)
  static let compassProperties: [SensorProxyProperty] =
    SensorProxyReadings.Property.allCases.filter(\.onCompass).map(SensorProxyProperty.reading)

  /// The sensors whose Claim and Release methods live on the main object.
  static let mainSensors: [SensorKind] = [.accelerometer, .light, .proximity]

  /// `ClaimAccelerometer`, `ReleaseAccelerometer`, ... for `sensors`.
  static func methods(_ sensors: [SensorKind]) -> [String] {
    sensors.flatMap { ["Claim\($0.busName)", "Release\($0.busName)"] }
  }

  /// A method's meaning: whether it claims (else releases), and which sensor.
  static func claim(_ member: String) -> (claims: Bool, sensor: SensorKind)? {
    for (prefix, claims) in [("Claim", true), ("Release", false)] where member.hasPrefix(prefix) {
      if let sensor = SensorKind(busName: member.dropFirst(prefix.count)) {
        return (claims, sensor)
      }
    }
    return nil
  }

}
