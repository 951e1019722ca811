/// A kind of sensor orientd reads and serves: the accelerometer that orientation comes from,
/// the ambient light sensor, proximity sensor and compass that iio-sensor-proxy serves beside
/// it, and a convertible's hinge sensor (Intel's `hinge`), a source of the tablet mode. The
/// identity of a sensor through claims, demand, readings and the D-Bus service.
package enum SensorKind: String, CaseIterable, Comparable, Sendable {
  case accelerometer
  case light
  case proximity
  case compass
  /// A hinge angle sensor (Intel's ISH `hinge`): read for the tablet mode, never claimed.
  case hinge

  /// The name in iio-sensor-proxy's `Claim` and `Release` methods: `Accelerometer`, `Light`,
  /// `Proximity`, `Compass`.
  package var busName: String {
    switch self {
    case .accelerometer: "Accelerometer"
    case .light: "Light"
    case .proximity: "Proximity"
    case .compass: "Compass"
    case .hinge: "Hinge"
    }
  }

  /// The kind a `Claim`/`Release` method names, e.g. `Light`: the accelerometer and the
  /// reading kinds, the sensors iio-sensor-proxy's interface has.
  package init?(busName: some StringProtocol) {
    guard let kind = ([.accelerometer] + Self.readingKinds).first(where: { $0.busName == busName }) else {
      return nil
    }
    self = kind
  }

  /// The kind in words, for logs and diagnostics: `ambient light sensor`.
  package var noun: String {
    switch self {
    case .accelerometer: "accelerometer"
    case .light: "ambient light sensor"
    case .proximity: "proximity sensor"
    case .compass: "compass"
    case .hinge: "hinge sensor"
    }
  }

  /// The state key its readings are published under; nil for the accelerometer and the hinge
  /// sensor, whose readings become the orientation state (the hinge's angle and the mode).
  package var readingKey: StateKey? {
    switch self {
    case .accelerometer, .hinge: nil
    case .light: .light
    case .proximity: .proximity
    case .compass: .heading
    }
  }

  /// The kinds read as a plain value that clients claim and subscribe to, as iio-sensor-proxy
  /// serves them (everything but the accelerometer and the hinge sensor).
  package static let readingKinds: [SensorKind] = [.light, .proximity, .compass]

  /// The kinds found and read as a plain value on the sampling thread (`SensorInventory`,
  /// `ReadingSensors`): the reading kinds and the hinge sensor.
  package static let valueKinds: [SensorKind] = readingKinds + [.hinge]

  package static func < (left: SensorKind, right: SensorKind) -> Bool {
    allCases.firstIndex(of: left)! < allCases.firstIndex(of: right)!
  }
}

/// A reading as clients see it: no such sensor, a sensor with no reading (yet, or not now),
/// or a value.
package enum Reading<Value: Equatable & Sendable>: Equatable, Sendable {
  /// The machine has no such sensor (or it went away).
  case absent
  /// A sensor is there, but nothing is read now: not yet, or nobody needs it.
  case unknown
  case value(Value)

  /// The value, if there is one.
  package var value: Value? {
    if case .value(let value) = self { return value }
    return nil
  }

  /// Whether there is a sensor.
  package var isPresent: Bool { self != .absent }
}
