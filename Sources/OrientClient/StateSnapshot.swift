import OrientCore

/// The state values `get` collects, printed whole or one field at a time.
struct StateSnapshot {
  /// The fields in the order orientd sends them; `get FIELD` accepts exactly these.
  static let fields = ["sensor", "device", "orientation", "lock", "allowed", "mode", "hinge"]

  private var latest: [String: StateChange] = [:]

  /// Keeps `change` as the current value of its field (a later line replaces an earlier one).
  mutating func record(_ change: StateChange) {
    latest[change.key] = change
  }

  /// The present fields in protocol order.
  private var changes: [StateChange] { Self.fields.compactMap { latest[$0] } }

  /// The lock as orientd reported it, nil when it did not.
  var lock: StateChange? { latest["lock"] }

  /// The screen orientation; nil when undefined or not reported.
  var orientation: ScreenOrientation? {
    if case .orientation(let value) = latest["orientation"] { return value }
    return nil
  }

  /// The mode; unknown when not reported.
  var mode: TabletMode {
    if case .mode(let value) = latest["mode"] { return value }
    return .unknown
  }

  /// Every field as a text protocol line, `sensor online` first.
  var lines: String {
    changes.map { ProtocolRendering.line(for: $0, format: .text) }.joined()
  }

  /// Every field as one JSON object, so `jq .orientation` reads one value.
  var jsonObject: String {
    "{" + changes.map { "\"\($0.key)\":\(Self.jsonValue($0))" }.joined(separator: ",") + "}\n"
  }

  /// One field's value: as the text protocol spells it, or as a JSON value. A hinge orientd
  /// does not report (a machine without one) is `undefined`, null in JSON, as orientd spells
  /// an unknown angle.
  func value(of field: String, json: Bool) -> String? {
    guard let change = latest[field] ?? (field == "hinge" ? .hinge(nil) : nil) else { return nil }
    return (json ? Self.jsonValue(change) : change.valueText) + "\n"
  }

  /// A string, an array of names for `allowed`, a number (or null) for `hinge`.
  private static func jsonValue(_ change: StateChange) -> String {
    if case .allowed(let allowed) = change {
      return "[" + allowed.members.map { "\"\($0.name)\"" }.joined(separator: ",") + "]"
    }
    if case .hinge(let degrees) = change { return degrees.map(String.init) ?? "null" }
    return "\"" + JSON.escape(change.valueText) + "\""
  }
}
