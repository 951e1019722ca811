import OrientCore
import OrientIIO
import OrientSystem

/// Reads one IIO accelerometer on the sampling thread, the same way for every sensor: it
/// finds the sensor its `SensorChoice` names (and looks again every second while there is
/// none), opens it and hands every sample to its `Handlers`, lets polling hurry while a
/// change is pending and stops reading while nothing needs samples (`setPending`, `pause`,
/// `resume`), and on `close` puts back what capture changed on the device.
///
/// It keeps `SensorDriver`'s verbs, as the reading sensors' drivers do: it is opened with
/// the handlers for what it reads (`open`), told whether anything needs it (`setNeeded`, that
/// is `pause` and `resume`), and closed. Unlike theirs, its one driver covers both capture paths
/// (buffer and poll), since its plan moves between them as the buffer proves silent or not.
///
/// Every decision is its `CapturePlan`'s; the driver does the I/O the plan asks for
/// (libiio, the buffer's descriptor, the poll, probe, retry and look timers) and tells the
/// plan what came of it. It converts readings with the sensor's `SampleConverter`, which
/// turns away readings that cannot be gravity.
///
/// Why this type is large (about 20 stored properties, about 500 lines): one accelerometer has
/// two capture paths that its plan moves between at run time, and each path holds its own
/// descriptors and timers (the buffer and its watch and removal watch; the poll and its
/// pacer; the probe, retry and look timers), plus what it must put back on the device (the
/// sampling frequencies). The decisions are `CapturePlan`'s; splitting the I/O per path would
/// need the plan's moves between paths to cross types.
final class AccelerometerDriver: SensorDriver {
  let kind = SensorKind.accelerometer
  /// How a driver is set up.
  struct Configuration: Sendable {
    var choice: SensorChoice
    /// The libiio context URI; nil means the local context.
    var uri: String?
    /// A mount matrix over every other source (`--mount-matrix`), or nil.
    var matrixOption: Matrix3?
    /// How capture goes, and whether the first look ends the run when it finds nothing.
    var plan: CapturePlan.Settings
    /// Whether capture may take the buffer at start (`setBuffersAllowed` changes it).
    var buffersAllowed = true
  }

  /// Where a driver's readings and news go.
  ///
  /// A class: a sample is handed on at every poll, and reaching one closure of a struct held
  /// in an optional copied all eight.
  final class Handlers {
    /// A usable sample; `polled` says whether it came while polling ran (a polled sensor
    /// reads every interval, a buffer may deliver only when the device moves).
    let sample: (Sample, _ polled: Bool) -> Void
    /// A reading taken at this time was out of range; it was logged and skipped.
    let rejected: (SampleTime) -> Void
    /// The sensor (named by its summary) came online, or went offline, at this time.
    let online: (_ value: Bool, _ summary: String, SampleTime) -> Void
    /// How the sensor is read, or nil once it is gone.
    let described: (SensorDescription?) -> Void
    /// Why a look found no sensor to read (said at every failed look).
    let absent: (String) -> Void
    /// The sensor found was set up with this calibration and matrix.
    let setUp: (SensorSetup) -> Void
    /// A look for the sensor saw these accelerometers (said before the outcome of the look).
    let surveyed: (SensorSurvey) -> Void
    /// The first look failed and the plan's `endsIfAbsent` was set: the driver does nothing more.
    let failed: (IIOError) -> Void
    /// The buffer delivered nothing between the last sample and this time, one report period
    /// after a pending change would settle: the device is as the last sample found it.
    let quiet: (SampleTime) -> Void

    init(
      sample: @escaping (Sample, _ polled: Bool) -> Void, rejected: @escaping (SampleTime) -> Void,
      online: @escaping (_ value: Bool, _ summary: String, SampleTime) -> Void,
      described: @escaping (SensorDescription?) -> Void, absent: @escaping (String) -> Void,
      setUp: @escaping (SensorSetup) -> Void, surveyed: @escaping (SensorSurvey) -> Void,
      failed: @escaping (IIOError) -> Void, quiet: @escaping (SampleTime) -> Void = { _ in }
    ) {
      self.sample = sample
      self.rejected = rejected
      self.online = online
      self.described = described
      self.absent = absent
      self.setUp = setUp
      self.surveyed = surveyed
      self.failed = failed
      self.quiet = quiet
    }
  }

  /// The sensor attached, and what it is read with.
  ///
  /// A class: every poll and scan looks at it, and a reference costs a retain where a copy of
  /// these fields cost a retain of each of them.
  private final class Attached {
    let context: IIOContext
    let sensor: Accelerometer
    let converter: SampleConverter
    var description: SensorDescription

    init(
      context: IIOContext, sensor: Accelerometer, converter: SampleConverter, description: SensorDescription
    ) {
      self.context = context
      self.sensor = sensor
      self.converter = converter
      self.description = description
    }

    /// The sensor's identity across set-ups: where it is read, its id and its name.
    var key: String { "\(context.uri) \(sensor.device.id) \(sensor.device.name)" }
  }

  private let configuration: Configuration
  private let loop: EventLoop
  private let clock: SampleClock
  private var handlers: Handlers?
  private var plan: CapturePlan
  private var attached: Attached?
  private var capture: BufferCapture?
  private var captureWatch: Watch?
  /// udev's removal event for the buffered device (the kernel never hangs up its buffer).
  private var removal: (watch: DeviceRemovalWatch, loopWatch: Watch)?
  private var polling: PollCapture?
  private var pacer: PollPacer?
  /// The poll interval while the device rests (`restEvery`).
  private var restingInterval: Duration
  private var probeTimer: LoopTimer?
  /// Decides a pending change when the buffer stays silent (`Handlers.quiet`).
  private var quietTimer: LoopTimer?
  private var retryTimer: LoopTimer?
  private var lookTimer: LoopTimer?
  private var frequencies: SamplingFrequencies?
  /// The original sampling frequencies of a sensor lost without putting them back (it may
  /// have failed a read and still be there), by the sensor's identity: given to its next
  /// set-up, so that `close` restores the driver's rates rather than the raised ones.
  private var lostFrequencies: (sensor: String, rates: [String: String])?
  /// A sensor hub's change sensitivity and report rate while the buffer captures.
  private let hubReporting = HubReporting()
  /// What the classifier fed by this sensor has pending (`setPending`).
  private var pending: PendingChange?
  private var garbageWarning = RateLimitedWarning()
  private var readWarning = RateLimitedWarning()
  /// Whether capture may take the device's buffer: not while another daemon owns
  /// `net.hadess.SensorProxy` (`setBuffersAllowed`).
  private var buffersAllowed: Bool

  /// A driver for the sensor `configuration` names, on `loop`; `clock` times its samples.
  init(configuration: Configuration, loop: EventLoop, clock: SampleClock) {
    self.configuration = configuration
    self.loop = loop
    self.clock = clock
    buffersAllowed = configuration.buffersAllowed
    restingInterval = configuration.plan.restingInterval
    var settings = configuration.plan
    if !buffersAllowed { settings.mode = .poll }
    plan = CapturePlan(settings: settings)
  }

  /// Looks for the sensor and reads it, handing what it reads to `handlers`.
  func open(handlers: Handlers) {
    self.handlers = handlers
    look()
  }

  /// What the classifier fed by this sensor has pending now: polling hurries until it settles,
  /// and a change from a known orientation counts as movement for a silent buffer.
  func setPending(_ change: PendingChange?) {
    pending = change
    armQuietTimer()
  }

  /// How long after a pending change would settle a silent buffer decides it: one report
  /// period at the rate capture asked the driver for (`SamplingFrequencies`), and 20 ms
  /// more for the scan on its way. A sensor that reports at a cadence sends a scan within it,
  /// and that scan decides; one that reports only on change (a HID sensor hub with a change
  /// sensitivity) sends nothing while the device rests, and without this a change would wait
  /// for the next movement.
  var quietGrace: Duration {
    .seconds(1) / SamplingFrequencies.needed(interval: configuration.plan.interval) + .milliseconds(20)
  }

  /// While capture is buffered and a change is pending, arms the quiet timer for one report
  /// period after it would settle; otherwise disarms it. Polling needs none: it reads at the
  /// settle time itself (`PollPace`).
  private func armQuietTimer() {
    guard let pending, capture != nil, polling == nil else {
      quietTimer = nil
      return
    }
    let timer =
      quietTimer ?? LoopTimer(loop: loop) { [unowned self] _ in self.handlers?.quiet(self.clock.now) }
    timer.schedule(after: max(.zero, pending.settlesAt - clock.now) + quietGrace)
    quietTimer = timer
  }

  /// Nothing needs samples: nothing is read and no timer of capture runs. A sensor not found
  /// yet is still looked for, and set up but not read once found.
  func pause() { run(plan.pause(at: clock.now)) }

  /// Samples are needed again: the sensor is read at once.
  func resume() { run(plan.resume(at: clock.now)) }

  /// Stops looking and reading, and puts back what capture changed on the device.
  func close() { run(plan.stop()) }

  /// Reads while `needed`; not needed, nothing is read and no timer of capture runs.
  func setNeeded(_ needed: Bool) { needed ? resume() : pause() }

  /// Polls every `resting` while the device rests (never more often than the interval).
  func restEvery(_ resting: Duration) {
    restingInterval = resting
    pacer?.rest(every: resting)
  }

  /// How it reads now, for the log.
  var summary: String { attached?.description.capture ?? "looking for the accelerometer" }

  /// Whether capture may take the device's buffer. Not while another daemon owns
  /// `net.hadess.SensorProxy`: an IIO device has one buffer, and that daemon's clients need it;
  /// the sensor is polled meanwhile, which takes nothing from anyone. When this changes how
  /// the sensor may be read, capture starts again the new way (without going offline).
  func setBuffersAllowed(_ allowed: Bool) {
    guard allowed != buffersAllowed else { return }
    buffersAllowed = allowed
    guard configuration.plan.mode != .poll else { return }
    run(plan.restart(with: planSettings))
    look()
  }

  /// The plan's settings as buffers are allowed now: polling only while they are not.
  private var planSettings: CapturePlan.Settings {
    var settings = configuration.plan
    if !buffersAllowed { settings.mode = .poll }
    return settings
  }

  // MARK: Looking for the sensor

  private func look() {
    lookTimer = nil
    if configuration.uri == nil, !FileSystem.exists("/sys/bus/iio/devices") {
      return lookFailed(NoIIOSubsystem(), endingWith: .noIIODevices)
    }
    let context: IIOContext
    let udev: UdevProperties?
    let sensor: Accelerometer
    let reason: String
    do throws(IIOError) {
      context = try IIOContext.open(uri: configuration.uri)
      udev = context.isLocal ? UdevProperties() : nil
      let sensors = SensorDiscovery.accelerometers(in: context, udev: udev)
      do {
        (sensor, reason) = try configuration.choice.pick(among: sensors, in: context)
      } catch {
        handlers?.surveyed(SensorSurvey(sensors: sensors, chosen: nil))
        throw error
      }
      handlers?.surveyed(SensorSurvey(sensors: sensors, chosen: sensor))
      if planSettings.mode == .poll, let why = sensor.whyNotPollable {
        guard buffersAllowed else { throw .bufferLeft(sensor: sensor.summary) }
        throw why
      }
    } catch {
      return lookFailed(error)
    }
    if configuration.uri != nil { context.setTimeout(.seconds(2)) }
    let setup = SensorSetup(
      accelerometer: sensor, matrixOption: configuration.matrixOption, udev: udev, warn: { Log.warning($0) })
    handlers?.setUp(setup)
    attached = Attached(
      context: context, sensor: sensor, converter: setup.converter,
      description: SensorDescription(setup, context: context, udev: udev, reason: reason))
    Log.info(
      "using \(sensor.summary) in \(context.uri), location \(sensor.location.rawValue), "
        + "scale \(setup.scaleText), mount matrix \(MountMatrix.format(setup.matrix.matrix)) "
        + "from \(setup.matrix.source)")
    let device = CapturePlan.Device(
      summary: sensor.summary, canPoll: sensor.canPoll, canBuffer: sensor.canBuffer, isLocal: context.isLocal,
      hasTrigger: sensor.hasTrigger(in: context))
    run(plan.attached(device, at: clock.now))
  }

  /// A look found no sensor to read: the plan ends the run for it, or says when to look again.
  private func lookFailed(_ error: IIOError) { lookFailed(error, endingWith: error) }

  /// A look failed with `fault`; if that ends the run, it ends with `error`.
  private func lookFailed(_ fault: some CaptureFault, endingWith error: IIOError) {
    let actions = plan.lookFailed(fault)
    if plan.hasEnded { return handlers?.failed(error) ?? () }
    handlers?.absent(fault.description)
    run(actions)
  }

  // MARK: Doing what the plan says

  private func run(_ actions: [CapturePlan.Action]) {
    for action in actions { perform(action) }
  }

  private func perform(_ action: CapturePlan.Action) {
    switch action {
    case .log(let note): Log.write(note)
    case .warnOfSkippedReading(let text): readWarning.warn(text)
    case .announce(let announcement): announce(announcement)
    case .raiseFrequencies: raiseFrequencies()
    case .restoreFrequencies:
      frequencies?.restore()
      frequencies = nil
    case .setHubReporting: attached.map { hubReporting.set($0.sensor, key: $0.key) }
    case .restoreHubReporting: hubReporting.restore()
    case .openBuffer: openBuffer()
    case .closeBuffer: closeBuffer()
    case .readOnce: readOnce()
    case .startPolling: startPolling()
    case .stopPolling: stopPolling()
    case .armProbe(let delay):
      probeTimer = timer(after: delay) { driver in
        driver.probeTimer = nil
        driver.run(driver.plan.probeExpired(at: driver.clock.now))
      }
    case .cancelProbe: probeTimer = nil
    case .armRetry(let delay):
      retryTimer = timer(after: delay) { driver in
        driver.retryTimer = nil
        driver.run(
          driver.plan.retryDue(at: driver.clock.now, deviceRests: driver.pacer?.deviceRests ?? false))
      }
    case .cancelRetry: retryTimer = nil
    case .online(let value): setOnline(value)
    case .detach(let restoring): detach(restoringFrequencies: restoring)
    case .lookAgain(let delay):
      guard lookTimer == nil else { return }
      lookTimer = timer(after: delay) { driver in driver.look() }
    case .cancelLook: lookTimer = nil
    case .unusable(let reason): lookFailed(.bufferUnusable(reason))
    }
  }

  /// A one-shot timer that calls `fire` with this driver.
  private func timer(after delay: Duration, _ fire: @escaping (AccelerometerDriver) -> Void) -> LoopTimer {
    let timer = LoopTimer(loop: loop) { [unowned self] _ in fire(self) }
    timer.schedule(after: delay)
    return timer
  }

  private func announce(_ announcement: CaptureAnnouncement) {
    guard let attached else { return }
    let text = announcement.text(
      CaptureAnnouncement.Facts(
        interval: configuration.plan.interval, restingInterval: configuration.plan.restingInterval,
        pollMethod: polling?.method ?? "",
        bufferSetup: capture?.summary ?? "",
        frequencyChanges: frequencies?.changes ?? []))
    if let line = text.logLine { Log.info(line) }
    attached.description.capture = text.mode
    attached.description.captureReason = text.reason
    handlers?.described(attached.description)
  }

  private func setOnline(_ value: Bool) {
    handlers?.online(value, attached?.sensor.summary ?? "the sensor", clock.now)
  }

  /// Stops every capture and lets the sensor go. `restoringFrequencies` writes the original
  /// sampling frequencies back; a lost sensor cannot be written to now, so its originals are
  /// kept for its next set-up.
  private func detach(restoringFrequencies restoring: Bool) {
    if attached != nil { handlers?.described(nil) }
    stopPolling()
    retryTimer = nil
    probeTimer = nil
    closeBuffer()
    // The hub's reporting goes back before the frequencies: its slow rate is theirs.
    if restoring { hubReporting.restore() } else { hubReporting.forget() }
    if restoring {
      frequencies?.restore()
    } else if let frequencies, let key = attached?.key {
      lostFrequencies = (key, frequencies.originalRates)
      frequencies.forget()
    }
    frequencies = nil
    attached = nil
  }

  /// Raises the sampling frequencies for capture: a sensor left at 1 Hz gives stale readings.
  private func raiseFrequencies() {
    guard let attached else { return }
    let remembered = lostFrequencies.flatMap { $0.sensor == attached.key ? $0.rates : nil } ?? [:]
    lostFrequencies = nil
    frequencies = SamplingFrequencies(
      raising: attached.sensor, to: SamplingFrequencies.needed(interval: configuration.plan.interval),
      remembered: remembered)
  }

  // MARK: The buffer

  /// Opens the buffer and watches its descriptor; tells the plan how that went.
  private func openBuffer() {
    guard let attached else { return }
    let opened: BufferCapture
    do {
      opened = try BufferCapture(accelerometer: attached.sensor, context: attached.context)
    } catch {
      return run(plan.bufferFailed(BufferFault.unopened(error), at: clock.now))
    }
    do {
      captureWatch = try loop.watch(opened.pollDescriptor) { [unowned self] events in
        self.readBuffer(hungUp: events.contains(.hangUp) || events.contains(.error))
      }
    } catch {
      opened.stop()
      return run(plan.bufferFailed(BufferFault.unwatchable(error), at: clock.now))
    }
    capture = opened
    watchRemoval(of: attached)
    run(plan.bufferOpened(at: clock.now))
  }

  /// Watches udev for the buffered device going away: its buffer would only fall silent.
  private func watchRemoval(of attached: Attached) {
    guard attached.context.isLocal, let watch = DeviceRemovalWatch(deviceID: attached.sensor.device.id)
    else { return }
    do {
      let loopWatch = try loop.watch(watch.descriptor, handler: { [unowned self] _ in self.removalReady() })
      removal = (watch, loopWatch)
    } catch {
      // Once per buffer opened: the capture goes on, and a removal is noticed only as silence.
      Log.warning(
        "\(attached.sensor.summary): cannot watch udev for its removal (\(error)); "
          + "if it goes, its buffer only falls silent")
    }
  }

  private func removalReady() {
    guard let removal, removal.watch.deviceRemoved() else { return }
    run(plan.bufferBroke(BufferFault.removed, at: clock.now))
  }

  private func closeBuffer() {
    quietTimer = nil
    if let removal { loop.unwatch(removal.loopWatch) }
    removal = nil
    if let captureWatch { loop.unwatch(captureWatch) }
    captureWatch = nil
    capture?.stop()
    capture = nil
  }

  private func readBuffer(hungUp: Bool) {
    guard let capture else { return }
    let time = clock.time(at: loop.now)
    switch capture.readScans({ x, y, z in
      self.convertAndHandOn(Double(x), Double(y), Double(z), at: time)
      self.hubReporting.scanned(x, y, z, at: time, changePending: self.pending != nil)
    }) {
    case .failure(let error):
      run(plan.bufferBroke(BufferFault.readFailed(error.code), at: clock.now))
    case .success(let scans):
      if scans > 0 { run(plan.scansArrived(at: clock.now)) }
      if scans == 0, hungUp { run(plan.bufferBroke(BufferFault.hungUp, at: clock.now)) }
    }
  }

  // MARK: Polling

  /// Polls at once, then at the interval (faster while a change is pending).
  private func startPolling() {
    guard let attached else { return }
    polling = PollCapture(accelerometer: attached.sensor)
    let pacer = PollPacer(
      loop: loop, clock: clock, interval: configuration.plan.interval,
      restingInterval: restingInterval
    ) { [unowned self] in self.poll() }
    pacer.start()
    self.pacer = pacer
  }

  private func stopPolling() {
    pacer?.stop()
    pacer = nil
    polling = nil
  }

  private func poll() {
    guard let polling else { return }
    let time = clock.time(at: loop.now)
    // Paced after the reading, whatever became of it: what it read says whether the device
    // moves, and the classifier what is pending.
    var gravity: Vector3?
    defer { pacer?.paced(after: gravity, at: time, settlesAt: pending?.settlesAt) }
    switch polling.read() {
    case .success(let raw):
      guard let sample = convertAndHandOn(raw.x, raw.y, raw.z, at: time) else { return }
      gravity = sample.gravity
      run(
        plan.polled(gravity: sample.gravity, changePending: pending?.fromKnownOrientation == true, at: time))
    case .failure(.garbage(let file, let value)):
      garbageWarning.warn(
        "\(attached?.sensor.summary ?? "the sensor"): \(file) holds '\(value)', not a raw reading; sample skipped"
      )
    case .failure(let error):
      run(plan.readFailed(error))
    }
  }

  /// Reads the sensor once, outside polling.
  private func readOnce() {
    guard let attached, case .success(let raw) = PollCapture(accelerometer: attached.sensor).read() else {
      return
    }
    convertAndHandOn(raw.x, raw.y, raw.z, at: clock.now)
  }

  /// Converts one raw reading and hands it on; returns the sample, or nil when the reading
  /// was out of range and skipped.
  @discardableResult
  private func convertAndHandOn(_ rawX: Double, _ rawY: Double, _ rawZ: Double, at time: SampleTime)
    -> Sample?
  {
    guard let attached else { return nil }
    guard let sample = attached.converter.sample(rawX: rawX, rawY: rawY, rawZ: rawZ, at: time) else {
      garbageWarning.warn(
        "\(attached.sensor.summary): reading (\(rawX), \(rawY), \(rawZ)) is out of range; sample skipped")
      handlers?.rejected(time)
      return nil
    }
    handlers?.sample(sample, plan.isPolling)
    return sample
  }
}

/// A change the classifier has pending: when it settles, and whether it is a change from a
/// known orientation (the first orientation of a sensor is no sign of movement).
struct PendingChange: Equatable, Sendable {
  var settlesAt: SampleTime
  var fromKnownOrientation: Bool
}

extension Detector.Sensor {
  /// The sensor that `setup` reads.
  init(_ setup: SensorSetup) {
    self.init(
      summary: setup.accelerometer.summary, scales: setup.axes.map { ($0.calibration.scale, $0.scaleFile) })
  }
}
