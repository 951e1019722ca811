/// A value a reading sensor delivered, past its filter: what crosses from the sampling
/// thread to the main loop.
package enum ReadingValue: Equatable, Sendable {
  case light(LightLevel)
  case proximity(near: Bool)
  case heading(Double)
  /// The hinge sensor's angle in whole degrees (0 closed, 360 folded back).
  case hinge(degrees: Int)

  /// The sensor it comes from.
  package var kind: SensorKind {
    switch self {
    case .light: .light
    case .proximity: .proximity
    case .heading: .compass
    case .hinge: .hinge
    }
  }
}

/// The readings clients see of the light sensor, the proximity sensor and the compass: for
/// each, whether there is one, and its value while it is read.
///
/// A value is shown only while it is current: when its sensor stops (nothing needs it) the
/// reading becomes `unknown`, so no stale value reaches a socket client as current, and the
/// first value after the sensor starts again is always published. Until discovery has said
/// whether a kind has a sensor, its reading is `unknown` too, and not current: a client asking
/// for it waits for the answer rather than hear `none` from a daemon that has not looked yet.
/// Pure: every input returns the changes it made, for the one fan-out.
package struct SensorReadings: Equatable, Sendable {
  package private(set) var light = Reading<LightLevel>.unknown
  package private(set) var proximity = Reading<Bool>.unknown
  package private(set) var heading = Reading<Double>.unknown
  /// The kinds discovery has said something of.
  private var reported: Set<SensorKind> = []

  package init() {}

  /// The change that states `kind`'s reading now.
  package func change(_ kind: SensorKind) -> StateChange? {
    switch kind {
    case .light: .light(light)
    case .proximity: .proximity(proximity)
    case .compass: .heading(heading)
    case .accelerometer, .hinge: nil
    }
  }

  /// The change that states the reading of `key`, for the readings' keys.
  package func change(for key: StateKey) -> StateChange? { key.readingKind.flatMap(change) }

  /// Whether `kind` has a sensor, as discovery said.
  package func isPresent(_ kind: SensorKind) -> Bool {
    reported.contains(kind) && (change(kind).map(Self.present) ?? false)
  }

  /// Whether `kind`'s reading says what is true now: a value, or no sensor at all.
  package func isCurrent(_ kind: SensorKind) -> Bool {
    guard reported.contains(kind) else { return false }
    switch change(kind) {
    case .light(.unknown)?, .proximity(.unknown)?, .heading(.unknown)?: return false
    default: return true
    }
  }

  /// A sensor of `kind` was found (true) or went away (false). The first word of discovery
  /// on a kind is always published, so that every sink hears whether there is one.
  package mutating func setPresent(_ kind: SensorKind, _ present: Bool) -> [StateChange] {
    guard kind.readingKey != nil else { return [] }
    if reported.insert(kind).inserted {
      _ = set(kind, value: nil, present: present)
      return change(kind).map { [$0] } ?? []
    }
    guard isPresent(kind) != present else { return [] }
    return set(kind, value: nil, present: present)
  }

  /// Every kind has no sensor: a source that is not a machine's sensors (the demo, a replay).
  package mutating func noSensors() -> [StateChange] {
    SensorKind.readingKinds.flatMap { setPresent($0, false) }
  }

  /// `kind`'s sensor stopped being read: its value is not current any more.
  package mutating func stopped(_ kind: SensorKind) -> [StateChange] {
    guard isPresent(kind) else { return [] }
    return set(kind, value: nil, present: true)
  }

  /// A value delivered by a sensor that is present.
  package mutating func take(_ value: ReadingValue) -> [StateChange] {
    guard isPresent(value.kind) else { return [] }
    return set(value.kind, value: value, present: true)
  }

  private mutating func set(_ kind: SensorKind, value: ReadingValue?, present: Bool) -> [StateChange] {
    let before = change(kind)
    switch (kind, value) {
    case (.light, .light(let level)?): light = .value(level)
    case (.light, _): light = present ? .unknown : .absent
    case (.proximity, .proximity(let near)?): proximity = .value(near)
    case (.proximity, _): proximity = present ? .unknown : .absent
    case (.compass, .heading(let degrees)?): heading = .value(degrees)
    case (.compass, _): heading = present ? .unknown : .absent
    case (.accelerometer, _), (.hinge, _): return []
    }
    let after = change(kind)
    return after != before ? after.map { [$0] } ?? [] : []
  }

  private static func present(_ change: StateChange) -> Bool {
    switch change {
    case .light(let reading): reading.isPresent
    case .proximity(let reading): reading.isPresent
    case .heading(let reading): reading.isPresent
    default: false
    }
  }
}
