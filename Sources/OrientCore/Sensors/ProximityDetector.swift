/// Tells from a proximity sensor's readings whether something is near.
///
/// A sensor with a near level (udev's `PROXIMITY_NEAR_LEVEL` from systemd's hwdb, or the
/// driver's `in_proximity_nearlevel`) is near above it, with iio-sensor-proxy's margins,
/// exactly as that daemon applies them so that both tell a client the same: the margin is
/// chosen by the reading before, not by the state. After a reading above the level, near
/// holds down to 90 % of it; after one at or below it, near starts only above 110 %. A
/// reading that stays between the two settles on the level itself one reading late (129 after
/// 0 is far, then near); readings that alternate around the level within the band flip with
/// them, as they do in iio-sensor-proxy. A human presence sensor (the HID sensor hub's `prox`)
/// reads 1 while someone is there: near. Pure: readings in, whether near out.
package struct ProximityDetector: Equatable, Sendable {
  /// How readings are told apart.
  package enum Rule: Equatable, Sendable {
    /// Near above this level, with the margins.
    case nearLevel(Double)
    /// Near while the reading is not 0.
    case presence
  }

  /// Near holds down to this fraction of the level once the last reading was above it.
  package static let lowMark = 0.9
  /// Near starts above this fraction of the level otherwise.
  package static let highMark = 1.1

  package let rule: Rule
  private var lastReading: Double = 0

  package init(rule: Rule) { self.rule = rule }

  /// Takes a reading; returns whether something is near.
  package mutating func take(_ reading: Double) -> Bool {
    defer { lastReading = reading }
    switch rule {
    case .presence:
      return reading != 0
    case .nearLevel(let level):
      let mark = level * (lastReading > level ? Self.lowMark : Self.highMark)
      return reading > mark
    }
  }

  /// The sensor stopped: the margins start afresh.
  package mutating func reset() { lastReading = 0 }

  /// The near level from a udev property or sysfs value: a number above 0. Nil for none given
  /// (iio-sensor-proxy too reads 0 as none); an error naming `source` for anything else.
  package static func nearLevel(_ text: String?, source: String) -> Result<Double?, ValueError> {
    guard let text else { return .success(nil) }
    guard let value = NumberParsing.finiteDouble(text.trimmingSpaces) else {
      return .failure(ValueError("\(source) '\(ProtocolError.printable(Substring(text)))' is not a number"))
    }
    guard value != 0 else { return .success(nil) }
    guard value > 0 else { return .failure(ValueError("\(source) \(text) is below 0")) }
    return .success(value)
  }
}
