/// The hinge of a convertible: pairs the display sensor's latest reading with the base
/// sensor's, runs the `HingeModeDetector` on each pair, and says when what the hinge gives
/// (`HingeStatus`) changes.
///
/// Both sensors are read every interval, so the latest reading of one is never much older
/// than that when the other reads: polled readings at most `pairWindow` apart make a pair. A
/// buffer may deliver only when the device moves, so its last reading stays current. A
/// sensor that is polled and has no usable reading for `failingAfter` while the other reads,
/// or that gives only readings out of range, is failing: the mode is unknown until it reads
/// again. Either sensor coming or going starts the hinge afresh.
///
/// Pure: every reading carries its time; each input returns what to log and the new status.
package struct HingePairing: Sendable {
  /// One of the two sensors.
  package enum Sensor: String, Sendable {
    case display
    case base

    /// The other sensor of the pair.
    var other: Sensor { self == .display ? .base : .display }
  }

  /// What an input did: lines for the log, and the hinge's status when it changed.
  package struct Outcome: Equatable, Sendable {
    package var notes: [LogNote] = []
    /// The new status, nil when it stayed the same.
    package var status: HingeStatus?
  }

  /// What is known of one sensor.
  private struct Half: Sendable {
    /// The sensor's one-line identity while it is online, else nil.
    var summary: String?
    /// Its latest usable reading.
    var latest: Sample?
    /// Whether it is polled: then a reading is due every interval, and one that does not come
    /// means the sensor is failing.
    var polled = false
    /// The time of its latest reading that was out of range, if it came after `latest`.
    var rejectedAt: SampleTime?
    /// Whether it is failing now (said once in the log, until it reads again).
    var failing = false
    /// Its readings (usable or not) since the other sensor's latest usable one: a silent
    /// sensor is failing only while this one goes on reading. After a stall of the thread that
    /// reads both (a loaded machine), neither has read, and neither is failing.
    var readingsSinceOther = 0
  }

  /// The readings the other sensor must have made since a sensor's latest usable one for that
  /// sensor's silence to count as failing.
  static let witnessReadings = 3

  /// Polled readings of the two sensors at most this far apart make a pair.
  let pairWindow: Duration
  /// A polled sensor without a usable reading for longer than this while the other reads is
  /// failing.
  let failingAfter: Duration

  private var detector = HingeModeDetector()
  private var display = Half()
  private var base = Half()
  /// Whether a base sensor was found, so that one going offline is worth a warning.
  private var hasBaseSensor = false
  /// The lid switch: closed, open, or none (nil).
  private var lidClosed: Bool?
  private var status = HingeStatus.unavailable
  private var lastIgnored: HingeModeDetector.Ignored?

  /// A hinge whose sensors are read every `interval`: pairs are at most 1.5 intervals and
  /// 20 ms apart, and a sensor is failing after 3 intervals, and at least 300 ms, of silence.
  package init(interval: Duration) {
    pairWindow = interval + interval / 2 + .milliseconds(20)
    failingAfter = max(interval * 3, .milliseconds(300))
  }

  /// A base sensor was found and will be read.
  package mutating func baseFound() { hasBaseSensor = true }

  /// The lid switch changed (nil: there is none).
  package mutating func setLid(closed: Bool?) -> [LogNote] {
    guard closed != lidClosed else { return [] }
    lidClosed = closed
    return [
      .info("hinge: the lid switch says \(closed.map { $0 ? "closed" : "open" } ?? "nothing (no switch)")")
    ]
  }

  /// `sensor` came online (`summary` names it) or went offline. Either change starts the hinge
  /// afresh, forgetting both sensors' readings: a sensor that comes back may be another one,
  /// and the other's last reading may be from before.
  package mutating func online(_ sensor: Sensor, _ value: Bool, summary: String) -> Outcome {
    let name = self[sensor].summary ?? summary
    display = Half(summary: sensor == .display ? (value ? summary : nil) : display.summary)
    base = Half(summary: sensor == .base ? (value ? summary : nil) : base.summary)
    detector = HingeModeDetector()
    lastIgnored = nil
    var outcome = Outcome()
    if value, let displayName = display.summary, let baseName = base.summary {
      outcome.notes.append(
        .info(
          "hinge: pairing \(displayName) (display) with \(baseName) (base); the hinge angle gives the mode"))
    } else if !value, hasBaseSensor {
      outcome.notes.append(
        .warning("hinge: the \(sensor.rawValue) accelerometer \(name) is offline; no hinge until it is back"))
    }
    updateStatus(into: &outcome)
    return outcome
  }

  /// Whether both sensors are online. Without both there is no hinge: a reading has nothing
  /// to pair with and is not kept.
  package var hasBothSensors: Bool { base.summary != nil && display.summary != nil }

  /// A usable reading of `sensor`; `polled` says whether polling read it.
  package mutating func take(_ sample: Sample, from sensor: Sensor, polled: Bool) -> Outcome {
    var outcome = Outcome()
    guard hasBothSensors else { return outcome }
    self[sensor].latest = sample
    self[sensor].polled = polled
    self[sensor].rejectedAt = nil
    self[sensor].readingsSinceOther += 1
    self[sensor.other].readingsSinceOther = 0
    if self[sensor].failing {
      self[sensor].failing = false
      outcome.notes.append(
        .info("hinge: the \(sensor.rawValue) accelerometer \(self[sensor].summary ?? "") reads again"))
    }
    evaluate(at: sample.time, into: &outcome)
    pair(at: sample.time, after: sensor, into: &outcome)
    updateStatus(into: &outcome)
    return outcome
  }

  /// Runs the detector on the two latest readings when they make a pair at `time`, just after
  /// a reading of `sensor`.
  private mutating func pair(at time: SampleTime, after sensor: Sensor, into outcome: inout Outcome) {
    guard !display.failing, !base.failing, let lid = display.latest, let baseReading = base.latest else {
      return
    }
    // A polled reading is current for about an interval; a buffer's until the next one.
    let otherPolled = sensor == .display ? base.polled : display.polled
    if otherPolled, max(lid.time - baseReading.time, baseReading.time - lid.time) > pairWindow { return }
    let step = detector.update(
      lid: lid.gravity, base: HingeAngle.flatFrame(ofBase: baseReading.gravity), at: time,
      lidClosed: lidClosed)
    if step.ignored != lastIgnored {
      lastIgnored = step.ignored
      if let ignored = step.ignored {
        outcome.notes.append(.debug("hinge: readings ignored: \(Self.describe(ignored, lid, baseReading))"))
      }
    }
  }

  /// A reading of `sensor` at `time` was out of range (the driver has said so, and skipped it).
  package mutating func rejected(_ sensor: Sensor, at time: SampleTime) -> Outcome {
    var outcome = Outcome()
    self[sensor].rejectedAt = time
    self[sensor].readingsSinceOther += 1
    evaluate(at: time, into: &outcome)
    updateStatus(into: &outcome)
    return outcome
  }

  private subscript(sensor: Sensor) -> Half {
    get { sensor == .display ? display : base }
    set {
      if sensor == .display { display = newValue } else { base = newValue }
    }
  }

  /// Marks either sensor failing when it has had no usable reading for a while at `time` while
  /// the other went on reading: polled and silent (its readings are garbage, or its reads
  /// fail), or delivering only readings out of range.
  private mutating func evaluate(at time: SampleTime, into outcome: inout Outcome) {
    for sensor in [Sensor.display, .base] {
      guard !self[sensor].failing, let latest = self[sensor].latest else { continue }
      let silent = time - latest.time
      // Readings out of range show the sensor is read; silence counts only while the other is.
      let readAll = self[sensor.other].readingsSinceOther >= Self.witnessReadings
      guard silent > failingAfter, self[sensor].rejectedAt != nil || (self[sensor].polled && readAll) else {
        continue
      }
      self[sensor].failing = true
      outcome.notes.append(
        .warning(
          "hinge: no usable reading from the \(sensor.rawValue) accelerometer \(self[sensor].summary ?? "") "
            + "for \(silent.wholeMilliseconds) ms; mode unknown until it reads again"))
    }
  }

  private static func describe(_ ignored: HingeModeDetector.Ignored, _ lid: Sample, _ base: Sample) -> String
  {
    switch ignored {
    case .verticalHinge:
      let along = HingeAngle.alongHinge(lid: lid.gravity, base: base.gravity)
      return "the hinge is near vertical (\(DecimalFormatting.fixed(along, decimals: 2)) g along it)"
    case .moving:
      return
        "the device is moving (magnitudes \(DecimalFormatting.fixed(lid.gravity.magnitude, decimals: 2)) g "
        + "and \(DecimalFormatting.fixed(base.gravity.magnitude, decimals: 2)) g)"
    }
  }

  /// Works out the status from what is known; says so when it changed.
  private mutating func updateStatus(into outcome: inout Outcome) {
    let available = display.summary != nil && base.summary != nil
    let usable = available && !display.failing && !base.failing
    let next = HingeStatus(
      available: available, mode: usable ? detector.mode : .unknown,
      angle: usable ? detector.publishedAngle : nil)
    guard next != status else { return }
    let before = status
    status = next
    let angle = next.angle.map { "hinge \($0) degrees" } ?? "hinge angle unknown"
    let line = "\(angle): \(next.mode.rawValue) mode" + (available ? "" : " (no hinge)")
    let changed = next.mode != before.mode || next.available != before.available
    outcome.notes.append(changed ? .info(line) : .debug(line))
    outcome.status = next
  }
}
