/// What one socket client's settings ask of the sensor.
public struct ClientNeeds: Equatable, Sendable {
  /// It subscribes to device orientation changes.
  public var deviceChanges: Bool
  /// It streams samples.
  public var samples: Bool

  /// Needs as given.
  public init(deviceChanges: Bool, samples: Bool) {
    self.deviceChanges = deviceChanges
    self.samples = samples
  }

  /// A client that needs nothing (one not yet admitted, or gone).
  public static let nothing = ClientNeeds(deviceChanges: false, samples: false)
}

/// How many socket clients hear device changes and how many stream samples, so that the
/// daemon hears only of a first one or a last one: the sensor may stop while nobody listens,
/// and samples cross from the sampling thread only while someone streams them.
public struct SubscriberCounts: Equatable, Sendable {
  /// Clients subscribed to device orientation changes.
  public private(set) var deviceSubscribers = 0
  /// Clients streaming samples.
  public private(set) var sampleSubscribers = 0

  /// No clients.
  public init() {}

  /// Whether any client hears device changes.
  public var wantsDevice: Bool { deviceSubscribers > 0 }

  /// Whether any client streams samples.
  public var wantsSamples: Bool { sampleSubscribers > 0 }

  /// One client's needs went from `old` to `new` (a client arrives from `.nothing` and leaves
  /// to it); true when that changed whether anyone wants device changes or samples.
  public mutating func update(from old: ClientNeeds, to new: ClientNeeds) -> Bool {
    let before = (wantsDevice, wantsSamples)
    deviceSubscribers += (new.deviceChanges ? 1 : 0) - (old.deviceChanges ? 1 : 0)
    sampleSubscribers += (new.samples ? 1 : 0) - (old.samples ? 1 : 0)
    return before != (wantsDevice, wantsSamples)
  }
}
