/// What a state change is about: its identity through the fan-out, the socket's subscriptions
/// and the D-Bus properties. The protocol spells each as its raw value (`orientation left-up`).
package enum StateKey: String, CaseIterable, Sendable {
  /// Whether the accelerometer delivers samples.
  case sensor
  case device
  case orientation
  case lock
  case allowed
  case mode
  case hinge
  /// The ambient light level.
  case light
  /// Whether something is near the proximity sensor.
  case proximity
  /// The compass heading.
  case heading
  /// A rotation the locked screen could take (`suggestion left-up`, `suggestion none`): a client
  /// asks for it by name, as it comes and goes without changing the state.
  case suggestion

  /// The keys of the orientation state, which a new connection receives (`subscribe all`).
  package static let orientationState: [StateKey] = [
    .sensor, .device, .orientation, .lock, .allowed, .mode, .hinge,
  ]
  /// The keys of the readings of the other sensors, which a client asks for by name: each
  /// keeps its sensor read while someone hears it.
  package static let readings: [StateKey] = [.light, .proximity, .heading]

  /// The sensor whose readings this key carries, for the readings' keys.
  package var readingKind: SensorKind? {
    switch self {
    case .light: .light
    case .proximity: .proximity
    case .heading: .compass
    default: nil
    }
  }
}
