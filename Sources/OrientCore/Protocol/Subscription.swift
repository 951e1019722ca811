/// Which state changes a connection receives: `subscribe orientation,mode`. A new
/// connection gets everything, so clients written before subscriptions keep working.
public struct Subscription: OptionSet, Equatable, Sendable {
  public let rawValue: UInt8

  public init(rawValue: UInt8) { self.rawValue = rawValue }

  public static let sensor = Subscription(rawValue: 1 << 0)
  public static let device = Subscription(rawValue: 1 << 1)
  public static let orientation = Subscription(rawValue: 1 << 2)
  public static let lock = Subscription(rawValue: 1 << 3)
  public static let allowed = Subscription(rawValue: 1 << 4)
  public static let mode = Subscription(rawValue: 1 << 5)
  public static let hinge = Subscription(rawValue: 1 << 6)
  public static let all: Subscription = [.sensor, .device, .orientation, .lock, .allowed, .mode, .hinge]

  /// The keys in protocol order, with the member each names.
  public static let keys: [(name: String, member: Subscription)] = [
    ("sensor", .sensor), ("device", .device), ("orientation", .orientation), ("lock", .lock),
    ("allowed", .allowed), ("mode", .mode), ("hinge", .hinge),
  ]

  /// The member a change belongs to.
  public static func member(for change: StateChange) -> Subscription {
    keys.first { $0.name == change.key }?.member ?? []
  }

  /// Whether a connection with this subscription receives `change`.
  public func includes(_ change: StateChange) -> Bool { contains(Self.member(for: change)) }

  /// `orientation,mode`, or `all`.
  public var listText: String {
    self == .all ? "all" : Self.keys.filter { contains($0.member) }.map(\.name).joined(separator: ",")
  }

  /// Parses `all`, or keys separated by commas (spaces after them allowed), at least one.
  public static func parse(_ text: some StringProtocol) throws(ValueError) -> Subscription {
    var result: Subscription = []
    for word in text.split(separator: ",", omittingEmptySubsequences: false) {
      let name = word.trimmingSpaces
      if name == "all" {
        result.formUnion(.all)
      } else if let key = keys.first(where: { $0.name == name }) {
        result.insert(key.member)
      } else {
        throw ValueError(
          "unknown state '\(ProtocolError.printable(name))' (expected all or a list of sensor, device, orientation, lock, allowed, mode, hinge)"
        )
      }
    }
    guard !result.isEmpty else { throw ValueError("empty list") }
    return result
  }
}
