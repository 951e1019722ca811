/// Which state changes a connection receives: `subscribe orientation,mode`. A new connection
/// gets the whole orientation state (`all`), so clients written before subscriptions keep
/// working; the readings of the other sensors (`light`, `proximity`, `heading`) come only to a
/// client that names them, since each keeps its sensor read while someone hears it, and so do
/// rotation suggestions (`suggestion`).
package struct Subscription: OptionSet, Equatable, Sendable {
  package let rawValue: UInt16

  package init(rawValue: UInt16) { self.rawValue = rawValue }

  /// The subscription to one key.
  package init(_ key: StateKey) {
    rawValue = 1 << UInt16(StateKey.allCases.firstIndex(of: key)!)
  }

  package static let sensor = Subscription(.sensor)
  package static let device = Subscription(.device)
  package static let orientation = Subscription(.orientation)
  package static let lock = Subscription(.lock)
  package static let allowed = Subscription(.allowed)
  package static let mode = Subscription(.mode)
  package static let hinge = Subscription(.hinge)
  package static let light = Subscription(.light)
  package static let proximity = Subscription(.proximity)
  package static let heading = Subscription(.heading)
  package static let suggestion = Subscription(.suggestion)
  /// The orientation state: what `all` names, and what a new connection receives.
  package static let all = Subscription(keys: StateKey.orientationState)
  /// Every reading of the other sensors.
  package static let readings = Subscription(keys: StateKey.readings)

  /// The subscription to `keys`.
  package init(keys: some Sequence<StateKey>) {
    self = keys.reduce(into: []) { $0.insert(Subscription($1)) }
  }

  /// Whether a connection with this subscription receives `change`.
  package func includes(_ change: StateChange) -> Bool { contains(Subscription(change.key)) }

  /// Whether it includes `key`.
  package func includes(_ key: StateKey) -> Bool { contains(Subscription(key)) }

  /// The keys it holds, in protocol order.
  package var keys: [StateKey] { StateKey.allCases.filter(includes) }

  /// The sensors whose readings it hears: each of them is read while it does.
  package var readingKinds: [SensorKind] { keys.compactMap(\.readingKind) }

  /// `orientation,mode`, `all`, or `all,light`.
  package var listText: String {
    let rest = keys.filter { !Subscription.all.includes($0) || !isSuperset(of: .all) }
    let words = (isSuperset(of: .all) ? ["all"] : []) + rest.map(\.rawValue)
    return words.joined(separator: ",")
  }

  /// Parses `all`, or keys separated by commas (spaces after them allowed), at least one.
  package static func parse(_ text: some StringProtocol) throws(ValueError) -> Subscription {
    var result: Subscription = []
    for word in text.split(separator: ",", omittingEmptySubsequences: false) {
      let name = word.trimmingSpaces
      if name == "all" {
        result.formUnion(.all)
      } else if let key = StateKey(rawValue: String(name)) {
        result.insert(Subscription(key))
      } else {
        throw ValueError(
          "unknown state '\(ProtocolError.printable(name))' (expected all or a list of "
            + StateKey.allCases.map(\.rawValue).joined(separator: ", ") + ")")
      }
    }
    guard !result.isEmpty else { throw ValueError("empty list") }
    return result
  }
}
