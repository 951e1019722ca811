/// A kind of sensor orientd reads and serves: the accelerometer that orientation comes from,
/// and the ambient light sensor, proximity sensor and compass that iio-sensor-proxy serves
/// beside it. The identity of a sensor through claims, demand, readings and the D-Bus service.
package enum SensorKind: String, CaseIterable, Comparable, Sendable {
  case accelerometer
  case light
  case proximity
  case compass

  /// The name in iio-sensor-proxy's `Claim` and `Release` methods: `Accelerometer`, `Light`,
  /// `Proximity`, `Compass`.
  package var busName: String {
    switch self {
    case .accelerometer: "Accelerometer"
    case .light: "Light"
    case .proximity: "Proximity"
    case .compass: "Compass"
    }
  }

  /// The kind a `Claim`/`Release` method names, e.g. `Light`.
  package init?(busName: some StringProtocol) {
    guard let kind = Self.allCases.first(where: { $0.busName == busName }) else { return nil }
    self = kind
  }

  /// The kind in words, for logs and diagnostics: `ambient light sensor`.
  package var noun: String {
    switch self {
    case .accelerometer: "accelerometer"
    case .light: "ambient light sensor"
    case .proximity: "proximity sensor"
    case .compass: "compass"
    }
  }

  /// The state key its readings are published under; nil for the accelerometer, whose
  /// readings become the orientation state.
  package var readingKey: StateKey? {
    switch self {
    case .accelerometer: nil
    case .light: .light
    case .proximity: .proximity
    case .compass: .heading
    }
  }

  /// The kinds read as a plain value (everything but the accelerometer).
  package static let readingKinds: [SensorKind] = [.light, .proximity, .compass]

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
