import OrientConfig
import OrientCore
import OrientSystem

/// The hinge of a convertible, on the sampling thread: pairs the display sensor's latest
/// reading with the base sensor's, runs the `HingeModeDetector` on each pair, and tells the
/// daemon (`SamplerEvent.hinge`) whenever what it says changes.
///
/// It owns the base sensor's source, started only once the display source has seen a base
/// sensor: a machine with one accelerometer never gets a second source, nor its wake-ups.
/// The display source hands it every sample after its detector, so the orientation path is
/// the same with or without a hinge.
final class HingeTracker {
  /// One of the two sensors.
  enum Sensor: String {
    case display
    case base
  }

  /// What is known of one sensor.
  private struct Half {
    /// The sensor's one-line identity while it is online, else nil.
    var summary: String?
    /// Its latest usable reading.
    var latest: Sample?
    /// Whether it is polled: then a reading is due every interval, and one that does not come
    /// means the sensor is failing. A buffer may deliver only when the device moves, so its
    /// last reading stays current.
    var polled = false
    /// The time of its latest reading that was out of range, if it came after `latest`.
    var rejectedAt: SampleTime?
    /// Whether it is failing now (said once in the log, until it reads again).
    var failing = false
  }

  private let options: DaemonOptions
  private let loop: EventLoop
  private let clock: SampleClock
  private let events: Mailbox<SamplerEvent>
  private var detector = HingeModeDetector()
  private var display = Half()
  private var base = Half()
  private var baseSource: IIOSensorSource?
  /// Whether nothing needs samples now (the daemon's demand is idle).
  private var paused = false
  /// The lid switch: closed, open, or none (nil).
  private var lidClosed: Bool?
  private var status = HingeStatus.unavailable
  private var lastIgnored: HingeModeDetector.Ignored?
  /// Readings of the two sensors at most this far apart make a pair: both are read every
  /// interval, so the latest of one is never older than that when the other reads.
  private let pairWindow: Duration
  /// A polled sensor without a usable reading for this long while the other reads is failing.
  private let failingAfter: Duration

  init(options: DaemonOptions, loop: EventLoop, clock: SampleClock, events: Mailbox<SamplerEvent>) {
    self.options = options
    self.loop = loop
    self.clock = clock
    self.events = events
    let interval = options.interval
    pairWindow = interval + interval / 2 + .milliseconds(20)
    failingAfter = max(interval * 3, .milliseconds(300))
  }

  /// The display source found a base sensor: read it too (once; its source then follows it
  /// going away and coming back).
  func baseFound() {
    guard baseSource == nil else { return }
    let source = IIOSensorSource(
      role: .base, options: options, loop: loop, clock: clock, hinge: self, events: events,
      failIfAbsent: false)
    baseSource = source
    // Found while nothing needs samples: set up, but not read until `resume`.
    if paused { source.pause() }
    source.start()
  }

  /// Nothing needs samples: the base sensor is not read either (`IIOSensorSource.pause`).
  func pause() {
    paused = true
    baseSource?.pause()
  }

  /// Samples are needed again: the base sensor is read again at once.
  func resume() {
    paused = false
    baseSource?.resume()
  }

  /// Stops the base sensor's capture and restores what it changed on the device.
  func stop() {
    baseSource?.stop()
    baseSource = nil
  }

  /// The lid switch changed (nil: there is none).
  func setLid(closed: Bool?) {
    guard closed != lidClosed else { return }
    lidClosed = closed
    Log.info("hinge: the lid switch says \(closed.map { $0 ? "closed" : "open" } ?? "nothing (no switch)")")
  }

  /// A sensor came online (`summary` names it) or went offline. Either change starts the
  /// hinge afresh, forgetting both sensors' readings: a sensor that comes back may be another
  /// one, and the other's last reading may be from before.
  func online(_ sensor: Sensor, _ value: Bool, _ summary: String) {
    let name = (sensor == .display ? display : base).summary ?? summary
    display = Half(summary: sensor == .display ? (value ? summary : nil) : display.summary)
    base = Half(summary: sensor == .base ? (value ? summary : nil) : base.summary)
    detector = HingeModeDetector()
    lastIgnored = nil
    if value, let displayName = display.summary, let baseName = base.summary {
      Log.info(
        "hinge: pairing \(displayName) (display) with \(baseName) (base); the hinge angle gives the mode")
    } else if !value, baseSource != nil {
      Log.warning("hinge: the \(sensor.rawValue) accelerometer \(name) is offline; no hinge until it is back")
    }
    publish()
  }

  /// A usable reading of `sensor`; `polled` says whether it came from polling.
  func take(_ sample: Sample, from sensor: Sensor, polled: Bool) {
    // Without a base sensor online there is no hinge: nothing to pair, nothing to keep.
    guard base.summary != nil, display.summary != nil else { return }
    var this = sensor == .display ? display : base
    this.latest = sample
    this.polled = polled
    this.rejectedAt = nil
    if this.failing {
      this.failing = false
      Log.info("hinge: the \(sensor.rawValue) accelerometer \(this.summary ?? "") reads again")
    }
    if sensor == .display { display = this } else { base = this }
    evaluate(at: sample.time)
    guard !display.failing, !self.base.failing, let lid = display.latest, let base = self.base.latest else {
      return publish()
    }
    // A polled reading is current for about an interval; a buffer's until the next one.
    let otherPolled = sensor == .display ? self.base.polled : display.polled
    if otherPolled, max(lid.time - base.time, base.time - lid.time) > pairWindow {
      return publish()
    }
    let step = detector.update(
      lid: lid.gravity, base: HingeAngle.flatFrame(ofBase: base.gravity), at: sample.time,
      lidClosed: lidClosed)
    if step.ignored != lastIgnored {
      lastIgnored = step.ignored
      if let ignored = step.ignored { Log.debug("hinge: readings ignored: \(describe(ignored, lid, base))") }
    }
    publish()
  }

  /// A reading of `sensor` was out of range (the source has said so, and skipped it).
  func rejected(_ sensor: Sensor, at time: SampleTime) {
    switch sensor {
    case .display: display.rejectedAt = time
    case .base: base.rejectedAt = time
    }
    evaluate(at: time)
    publish()
  }

  /// Marks either sensor failing when it has had no usable reading for a while at `time`:
  /// polled and silent (its readings are garbage, or its reads fail), or delivering only
  /// readings out of range.
  private func evaluate(at time: SampleTime) {
    for sensor in [Sensor.display, .base] {
      var half = sensor == .display ? display : base
      guard !half.failing, let latest = half.latest else { continue }
      let silent = time - latest.time
      guard silent > failingAfter, half.polled || half.rejectedAt != nil else { continue }
      half.failing = true
      Log.warning(
        "hinge: no usable reading from the \(sensor.rawValue) accelerometer \(half.summary ?? "") "
          + "for \(silent.wholeMilliseconds) ms; mode unknown until it reads again")
      if sensor == .display { display = half } else { base = half }
    }
  }

  private func describe(_ ignored: HingeModeDetector.Ignored, _ lid: Sample, _ base: Sample) -> String {
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

  /// Tells the daemon when what the hinge says changed.
  private func publish() {
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
    if next.mode != before.mode || next.available != before.available {
      Log.info(line)
    } else {
      Log.debug(line)
    }
    events.post(.hinge(next))
  }
}
