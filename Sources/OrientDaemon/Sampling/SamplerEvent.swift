import OrientCore
import OrientSystem

/// What the sampling thread tells the daemon's loop.
enum SamplerEvent: Sendable {
  /// The sensor started or stopped delivering samples.
  case sensor(online: Bool, time: SampleTime)
  /// What the sensor's detector found: a device orientation change, or a sample the
  /// daemon asked for.
  case detected(Detector.Report)
  /// The attached sensor and how it is read, or nil once it is gone.
  case described(SensorDescription?)
  /// No sensor is attached, for this reason (a look for it failed).
  case absent(String)
  /// The hinge between the display and base accelerometers: whether it is a mode source,
  /// the mode it gives and its angle. Sent when any of them changes.
  case hinge(HingeStatus)
  /// Sampling resumed after `idle` and its first sample has been classified: the device
  /// orientation the daemon holds is current again.
  case fresh(time: SampleTime)
  /// A replay reached its end.
  case finished
  /// Sampling cannot go on; the daemon exits with this failure.
  case failed(Failure)
  /// News of the reading sensors (light, proximity, compass, the hinge sensor).
  case readings(ReadingReport)
}

/// What the sampling thread tells the daemon of the reading sensors.
enum ReadingReport: Sendable {
  /// What the last look found, and how each sensor read is read (`info`, doctor).
  case inventory([SensorFinding], reading: [SensorKind: String])
  /// A sensor of this kind is there now (true), or no more (false).
  case present(SensorKind, Bool)
  /// A value to publish.
  case value(ReadingValue)
}

// The mailboxes between the threads are bounded (see `Mailbox`): what a kind may lose when the
// reader falls behind is the oldest messages of that kind, never a message of another kind.

extension SamplerEvent {
  /// Samples for `samples` subscribers: at 1 kHz, 64 ms of them. A loop that falls further
  /// behind (many subscribers that do not read) loses the oldest; the daemon's work per wake-up
  /// stays bounded and later messages are not delayed behind a backlog.
  static let samples = MailboxKind("sample", limit: 64)
  /// Device orientation changes: each one is kept unless the loop stops taking them for this
  /// many changes, when the oldest go (the newest, which clients end up with, always stays).
  static let deviceChanges = MailboxKind("device orientation change", limit: 1024)
  /// Only the newest tilt matters.
  static let tilt = MailboxKind("tilt", limit: 1)
  /// Sensor online and offline.
  static let sensorStatus = MailboxKind("sensor status", limit: 64)
  /// Only the newest description, end and failure matter.
  static let description = MailboxKind("sensor description", limit: 1)
  static let end = MailboxKind("replay end", limit: 1)
  /// Each status is whole: only the newest matters.
  static let hinge = MailboxKind("hinge status", limit: 1)
  static let fresh = MailboxKind("fresh sample", limit: 1)
  static let failure = MailboxKind("failure", limit: 1)
  /// Only the newest inventory matters.
  static let inventory = MailboxKind("sensor inventory", limit: 1)
  /// Each sensor's presence, in order.
  static let readingPresence = MailboxKind("reading sensor presence", limit: 16)
  /// Only a sensor's newest value matters: it is what the sensor says now.
  static let lightValue = MailboxKind("light level", limit: 1)
  static let proximityValue = MailboxKind("proximity", limit: 1)
  static let headingValue = MailboxKind("heading", limit: 1)
  static let hingeValue = MailboxKind("hinge angle", limit: 1)

  /// The kind this event is bounded with.
  var mailboxKind: MailboxKind {
    switch self {
    case .detected(.sample): return Self.samples
    case .detected(.device): return Self.deviceChanges
    case .detected(.tilt): return Self.tilt
    case .sensor: return Self.sensorStatus
    // Either says what the sensor is now: only the newest matters.
    case .described, .absent: return Self.description
    case .hinge: return Self.hinge
    case .fresh: return Self.fresh
    case .finished: return Self.end
    case .failed: return Self.failure
    case .readings(.inventory): return Self.inventory
    case .readings(.present): return Self.readingPresence
    case .readings(.value(.light)): return Self.lightValue
    case .readings(.value(.proximity)): return Self.proximityValue
    case .readings(.value(.heading)): return Self.headingValue
    case .readings(.value(.hinge)): return Self.hingeValue
    }
  }
}
