import OrientCore

/// The state values `get` collects, printed whole or one field at a time.
struct StateSnapshot {
  /// The fields in the order orientd sends them; `get FIELD` accepts exactly these.
  static let fields = StateKey.allCases.map(\.rawValue)

  private var latest: [StateKey: StateChange] = [:]

  /// Keeps `change` as the current value of its field (a later line replaces an earlier one).
  mutating func record(_ change: StateChange) {
    latest[change.key] = change
  }

  /// The present fields in protocol order.
  private var changes: [StateChange] { StateKey.allCases.compactMap { latest[$0] } }

  /// The lock as orientd reported it, nil when it did not.
  var lock: StateChange? { latest[.lock] }

  /// The screen orientation; nil when undefined or not reported.
  var orientation: ScreenOrientation? {
    if case .orientation(let value) = latest[.orientation] { return value }
    return nil
  }

  /// The rotation suggested; nil when none is or it was not reported.
  var suggestion: ScreenOrientation? {
    if case .suggestion(let value) = latest[.suggestion] { return value }
    return nil
  }

  /// The mode; unknown when not reported.
  var mode: TabletMode {
    if case .mode(let value) = latest[.mode] { return value }
    return .unknown
  }

  /// Every field as a text protocol line, `sensor online` first.
  var lines: String {
    changes.map { ProtocolRendering.line(for: $0, format: .text) }.joined()
  }

  /// Every field as one JSON object, so `jq .orientation` reads one value.
  var jsonObject: String {
    "{" + changes.map { "\"\($0.key.rawValue)\":\(Self.jsonValue($0))" }.joined(separator: ",") + "}\n"
  }

  /// One field's value: as the text protocol spells it, or as a JSON value. A hinge orientd
  /// does not report (a machine without one) is `undefined`, null in JSON, as orientd spells
  /// an unknown angle.
  func value(of field: String, json: Bool) -> String? {
    guard let key = StateKey(rawValue: field),
      let change = latest[key] ?? (key == .hinge ? .hinge(nil) : nil)
    else { return nil }
    return (json ? Self.jsonValue(change) : change.valueText) + "\n"
  }

  /// As orientd's JSON events write it (`JSON.value(of:)`); a light level, which carries its
  /// unit, as an object of its own: `{"level":350.5,"unit":"lux"}`.
  private static func jsonValue(_ change: StateChange) -> String {
    if case .light(.value(let level)) = change {
      return
        "{\"level\":\(DecimalFormatting.trimmed(level.value, decimals: 2)),\"unit\":\"\(level.unit.rawValue)\"}"
    }
    return JSON.value(of: change)
  }
}
