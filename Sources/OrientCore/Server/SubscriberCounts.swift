/// What one socket client's settings ask of the sensors.
package struct ClientNeeds: Equatable, Sendable {
  /// It subscribes to device orientation changes.
  package var deviceChanges: Bool
  /// It streams samples.
  package var samples: Bool
  /// The reading sensors it hears (`subscribe light`), or waits for a value of (`get light`).
  package var readings: Set<SensorKind>

  /// Needs as given.
  package init(deviceChanges: Bool, samples: Bool, readings: Set<SensorKind> = []) {
    self.deviceChanges = deviceChanges
    self.samples = samples
    self.readings = readings
  }

  /// A client that needs nothing (one not yet admitted, or gone).
  package static let nothing = ClientNeeds(deviceChanges: false, samples: false)
}

/// How many socket clients hear device changes, how many stream samples and how many need
/// each reading sensor, so that the daemon hears only of a first one or a last one: a sensor
/// may stop while nobody listens, and samples cross from the sampling thread only while
/// someone streams them.
package struct SubscriberCounts: Equatable, Sendable {
  /// Clients subscribed to device orientation changes.
  package private(set) var deviceSubscribers = 0
  /// Clients streaming samples.
  package private(set) var sampleSubscribers = 0
  /// Clients that need each reading sensor.
  package private(set) var readingSubscribers: [SensorKind: Int] = [:]

  /// No clients.
  package init() {}

  /// Whether any client hears device changes.
  package var wantsDevice: Bool { deviceSubscribers > 0 }

  /// Whether any client streams samples.
  package var wantsSamples: Bool { sampleSubscribers > 0 }

  /// The reading sensors some client needs.
  package var wantedReadings: Set<SensorKind> { Set(readingSubscribers.filter { $0.value > 0 }.keys) }

  /// One client's needs went from `old` to `new` (a client arrives from `.nothing` and leaves
  /// to it); true when that changed whether anyone wants device changes, samples or a
  /// reading sensor.
  package mutating func update(from old: ClientNeeds, to new: ClientNeeds) -> Bool {
    let before = (wantsDevice, wantsSamples, wantedReadings)
    deviceSubscribers += (new.deviceChanges ? 1 : 0) - (old.deviceChanges ? 1 : 0)
    sampleSubscribers += (new.samples ? 1 : 0) - (old.samples ? 1 : 0)
    for kind in old.readings.symmetricDifference(new.readings) {
      readingSubscribers[kind, default: 0] += new.readings.contains(kind) ? 1 : -1
    }
    return before != (wantsDevice, wantsSamples, wantedReadings)
  }
}
