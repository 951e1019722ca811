/// The light sensor, the proximity sensor and the compass as iio-sensor-proxy's D-Bus
/// interface shows them: `HasAmbientLight`, `LightLevelUnit`, `LightLevel`, `HasProximity`,
/// `ProximityNear` on the main object, `HasCompass` and `CompassHeading` on the compass's,
/// worked out from orientd's published readings.
///
/// As with the accelerometer (`SensorProxyAccelerometer`), iio-sensor-proxy reads a sensor
/// only while a client claims it, so its value is what it was before the first claim (0,
/// lux, not near) and stale after the last release; orientd shows D-Bus the same: a value
/// follows the sensor only while a client claims it, and a claim brings it up to date. The
/// `Has` properties are always current. As iio-sensor-proxy does, a sensor that appears
/// brings its value along (`HasAmbientLight` with `LightLevelUnit` and `LightLevel`), and a
/// light level is always signalled with its unit.
package struct SensorProxyReadings: Equatable, Sendable {
  /// A property these readings drive.
  package enum Property: String, CaseIterable, Sendable {
    case hasAmbientLight = "HasAmbientLight"
    case lightLevelUnit = "LightLevelUnit"
    case lightLevel = "LightLevel"
    case hasProximity = "HasProximity"
    case proximityNear = "ProximityNear"
    case hasCompass = "HasCompass"
    case compassHeading = "CompassHeading"

    /// Whether it is on the compass object (else the main one).
    package var onCompass: Bool { self == .hasCompass || self == .compassHeading }
  }

  /// One sensor's side: whether there is one, its latest value and the value shown.
  struct Side<Value: Equatable & Sendable>: Equatable, Sendable {
    var present = false
    var latest: Value
    var shown: Value

    init(_ initial: Value) {
      latest = initial
      shown = initial
    }
  }

  var light = Side(LightLevel(0, unit: .lux))
  var proximity = Side(false)
  var compass = Side(0.0)
  /// The sensors some client claims.
  package private(set) var claimed: Set<SensorKind> = []

  /// No sensor yet; values as iio-sensor-proxy starts with them.
  package init() {}

  package var hasAmbientLight: Bool { light.present }
  package var lightLevel: LightLevel { light.shown }
  package var hasProximity: Bool { proximity.present }
  package var proximityNear: Bool { proximity.shown }
  package var hasCompass: Bool { compass.present }
  package var compassHeading: Double { compass.shown }

  /// Takes one published change into account; returns the properties whose values changed
  /// (with the ones iio-sensor-proxy signals beside them), in `Property` order.
  package mutating func apply(_ change: StateChange) -> [Property] {
    update {
      switch change {
      case .light(let reading): Self.apply(reading, to: &$0.light)
      case .proximity(let reading): Self.apply(reading, to: &$0.proximity)
      case .heading(let reading): Self.apply(reading, to: &$0.compass)
      default: break
      }
    }
  }

  /// Whether any client claims `kind` now; a first claim brings its value up to date.
  package mutating func setClaimed(_ kind: SensorKind, _ isClaimed: Bool) -> [Property] {
    update {
      if isClaimed { $0.claimed.insert(kind) } else { $0.claimed.remove(kind) }
    }
  }

  /// Nobody claims anything: as after a restart of the service (the bus connection was lost,
  /// and every claim with it). What was shown stays, as a restarted iio-sensor-proxy would
  /// show its defaults until the next claim; only the claims go.
  package mutating func forgetClaims() { claimed = [] }

  private static func apply<Value>(_ reading: Reading<Value>, to side: inout Side<Value>) {
    switch reading {
    case .absent: side.present = false
    case .unknown: side.present = true
    case .value(let value):
      side.present = true
      side.latest = value
    }
  }

  private mutating func update(_ change: (inout Self) -> Void) -> [Property] {
    let before = self
    change(&self)
    if claimed.contains(.light) { light.shown = light.latest }
    if claimed.contains(.proximity) { proximity.shown = proximity.latest }
    if claimed.contains(.compass) { compass.shown = compass.latest }
    var changed: Set<Property> = []
    if light.present != before.light.present {
      changed.insert(.hasAmbientLight)
      if light.present { changed.formUnion([.lightLevelUnit, .lightLevel]) }
    }
    if light.shown != before.light.shown { changed.formUnion([.lightLevelUnit, .lightLevel]) }
    if proximity.present != before.proximity.present {
      changed.insert(.hasProximity)
      if proximity.present { changed.insert(.proximityNear) }
    }
    if proximity.shown != before.proximity.shown { changed.insert(.proximityNear) }
    if compass.present != before.compass.present {
      changed.insert(.hasCompass)
      if compass.present { changed.insert(.compassHeading) }
    }
    if compass.shown != before.compass.shown { changed.insert(.compassHeading) }
    return Property.allCases.filter(changed.contains)
  }
}
