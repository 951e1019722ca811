import OrientConfig
import OrientCore
import OrientIIO
import OrientSystem

/// Reads an IIO accelerometer on the sampling thread: finds it, captures through a buffer
/// or by polling, and survives it going away and coming back.
///
/// While attached, only the capture wakes the thread (a poll timer, or the kernel
/// delivering scans), and the sensor's sampling frequency stays raised for it. While no
/// sensor is attached, it looks again every second. In auto mode a buffer that stayed
/// silent at start is tried again now and then while polling goes on (at once when polling
/// sees the device move), and takes over when it delivers. Polling runs faster while a change
/// is pending (`PollPacer`). While nothing needs samples (`pause`), nothing is read at all.
///
/// A source reads one of a convertible's two accelerometers (`Role`): the display sensor,
/// which drives orientation, or the keyboard base's, whose readings only the hinge takes.
final class IIOSensorSource {
  /// Which accelerometer a source reads, and where its readings go.
  enum Role {
    /// The display sensor (or the one `--device` names): its readings go through the
    /// detector, and to the hinge when there is a base sensor too; the daemon hears of it.
    case display(Detector)
    /// The base sensor: its readings go to the hinge only, and the daemon hears of it only
    /// through the hinge's status.
    case base
  }

  private let role: Role
  /// Where both sensors' readings meet; nil where only orientation is wanted.
  private unowned let hinge: HingeTracker?
  private let options: DaemonOptions
  private let loop: EventLoop
  private let clock: SampleClock
  private let events: Mailbox<SamplerEvent>
  private var failIfAbsent: Bool

  private var context: IIOContext?
  private var sensor: Accelerometer?
  private var converter: SampleConverter?
  private var capture: BufferCapture?
  private var captureWatch: Watch?
  private var polling: PollCapture?
  private var pacer: PollPacer?
  private var probeTimer: LoopTimer?
  /// The next try of a buffer that stayed silent, while polling.
  private var bufferRetryTimer: LoopTimer?
  private var bufferRetries = RetrySchedule()
  /// Tries the silent buffer at once when polling sees the device move.
  private var retryTrigger = BufferRetryTrigger()
  /// Whether nothing needs samples (`pause`): nothing is read and no timer of capture runs.
  private var paused = false
  /// How capture went when it was paused, to go on the same way.
  private var pausedCapture: PausedCapture?
  private var frequencies: SamplingFrequencies?
  private var rescanTimer: LoopTimer?
  private var probeStarted = MonotonicInstant.now
  private var online = false
  private var lastAbsence = ""
  /// Sensor problems already logged: discovery runs again every second while no sensor is
  /// usable, and each problem is said once.
  private var reportedProblems: Set<String> = []
  private var description: SensorDescription?
  private var garbageWarning = RateLimitedWarning()
  private var readWarning = RateLimitedWarning()
  /// Remote contexts refused in a row, for spacing out the next attempts.
  private var refusals = RetrySchedule()
  /// Attempts at a sensor that is there but cannot be read (its buffer will not open).
  private var unusable = RetrySchedule()
  /// The original sampling frequencies of a sensor lost without putting them back (it may
  /// have failed a read and still be there), by the sensor's identity: given to its next
  /// set-up, so that exit restores the driver's rates rather than the raised ones.
  private var lostFrequencies: (sensor: String, rates: [String: String])?

  /// The wait between looks for a sensor while none is attached.
  static let rescanDelay = Duration.seconds(1)
  /// The longest a buffer may stay silent in auto mode before polling takes over.
  static let probeTime = Duration.seconds(1)
  /// Readings beyond this many g are garbage, not gravity.
  static let plausibleLimit = 32.0

  /// Prepares the source; `failIfAbsent` makes a missing sensor at start fatal (`--dump`).
  init(
    role: Role, options: DaemonOptions, loop: EventLoop, clock: SampleClock, hinge: HingeTracker?,
    events: Mailbox<SamplerEvent>,
    failIfAbsent: Bool
  ) {
    self.role = role
    self.hinge = hinge
    self.options = options
    self.loop = loop
    self.clock = clock
    self.events = events
    self.failIfAbsent = failIfAbsent
  }

  private var isDisplay: Bool {
    if case .display = role { return true }
    return false
  }

  /// Which half of the hinge this sensor is.
  private var half: HingeTracker.Sensor { isDisplay ? .display : .base }

  /// Tells the daemon about the display sensor; the base sensor reaches it only through the
  /// hinge, so that it never passes for the sensor orientation comes from.
  private func report(_ event: SamplerEvent) {
    if isDisplay { events.post(event) }
  }

  /// Attaches to the sensor, or starts looking for one.
  func start() { attach() }

  /// Stops capturing and restores what capture changed on the device.
  func stop() {
    rescanTimer = nil
    detach(restoring: true)
  }

  private var now: SampleTime { clock.now }

  // MARK: Attaching

  private func attach() {
    rescanTimer = nil
    if options.uri == nil, !FileSystem.exists("/sys/bus/iio/devices"), !failIfAbsent {
      return absent("no IIO devices on this machine (/sys/bus/iio/devices is missing)")
    }
    let context: IIOContext
    let sensor: Accelerometer
    let udev: UdevProperties?
    let reason: String
    do throws(Failure) {
      context = try openContext(uri: options.uri)
      udev = context.isLocal ? UdevProperties() : nil
      let sensors = SensorDiscovery.accelerometers(in: context, udev: udev)
      for problem in sensors.compactMap(\.locationProblem)
      where isDisplay && reportedProblems.insert(problem).inserted {
        Log.warning(problem)
      }
      switch role {
      case .display:
        sensor = try SensorDiscovery.choose(from: sensors, selector: options.device, context: context)
        reason = SensorDiscovery.reason(for: sensor, among: sensors, selector: options.device)
        // Only a machine that has a base sensor gets a second source.
        if SensorDiscovery.base(among: sensors, besides: sensor) != nil { hinge?.baseFound() }
      case .base:
        // The sensor orientation comes from (the one --device names) is never the base's too.
        let display = try? SensorDiscovery.choose(from: sensors, selector: options.device, context: context)
        guard let base = SensorDiscovery.base(among: sensors, besides: display) else {
          throw Failure("no base accelerometer in IIO context \(context.uri)", exitCode: .unavailable)
        }
        sensor = base
        reason = "it is the base sensor (\(base.locationSource ?? "location"))"
      }
      if options.captureMode == .poll, let why = sensor.whyNotPollable {
        throw Failure(why, exitCode: .unavailable)
      }
    } catch {
      if failIfAbsent { return events.post(.failed(error)) }
      // A context refused for what it would cost: a server that shows a small context to the
      // size check and a large one to libiio makes each attempt cost that much once, so
      // attempts are spaced further apart each time, up to a minute.
      if error.exitCode == .dataError {
        return absent(error.message, after: refusals.delayAfterFailure())
      }
      return absent(error.message)
    }
    refusals.reset()
    let fatal = failIfAbsent
    failIfAbsent = false
    lastAbsence = ""
    if options.uri != nil { context.setTimeout(milliseconds: 2000) }
    // --mount-matrix is the display sensor's: the base sensor has its own.
    let setup = SensorSetup(
      accelerometer: sensor, matrixOption: isDisplay ? options.mountMatrix : nil, udev: udev,
      warn: { Log.warning($0) })
    self.context = context
    self.sensor = sensor
    converter = setup.converter
    if case .display(let detector) = role { detector.sensor = Detector.Sensor(setup) }
    description = SensorDescription(
      id: sensor.device.id, summary: sensor.summary, reason: reason,
      location: sensor.location.rawValue + (sensor.locationSource.map { " (\($0))" } ?? ""), uri: context.uri,
      scale: setup.scaleText, offset: setup.offsetText, matrix: setup.matrix.matrix,
      matrixSource: setup.matrix.source,
      modalias: udev?.parentModalias(ofIIODevice: sensor.device.id) ?? "",
      dmi: context.isLocal ? dmiModalias() ?? "" : "")
    Log.info(
      "using \(sensor.summary) in \(context.uri), location \(sensor.location.rawValue), "
        + "scale \(setup.scaleText), mount matrix \(MountMatrix.format(setup.matrix.matrix)) "
        + "from \(setup.matrix.source)")
    if let failure = startCapture() {
      detach(restoring: true)
      if fatal { return events.post(.failed(Failure(failure, exitCode: .unavailable))) }
      // Each attempt writes its rates and puts them back: tried rarely while it lasts (the
      // buffer may be another program's).
      return absent(failure, after: unusable.delayAfterFailure())
    }
    unusable.reset()
    setOnline(true)
  }

  /// No sensor now: say so once per reason, and look again after `delay` (a second).
  private func absent(_ reason: String, after delay: Duration = rescanDelay) {
    if reason != lastAbsence {
      let when =
        delay == Self.rescanDelay
        ? "every second" : "in \(delay.wholeSeconds) s, then further apart, up to a minute"
      let serving = isDisplay ? "serving 'sensor offline'" : "no hinge angle meanwhile"
      Log.warning("\(reason); \(serving) and looking again \(when)")
      lastAbsence = reason
    }
    scheduleRescan(after: delay)
  }

  private func scheduleRescan(after delay: Duration = rescanDelay) {
    guard rescanTimer == nil else { return }
    let timer = LoopTimer(loop: loop) { [unowned self] _ in self.attach() }
    timer.schedule(after: delay)
    rescanTimer = timer
  }

  private func setOnline(_ value: Bool) {
    guard value != online else { return }
    online = value
    report(.sensor(online: value, time: now))
    hinge?.online(half, value, sensor?.summary ?? "the sensor")
  }

  /// The sensor is gone or failing: stop, go offline, keep the orientation, look again.
  private func lost(_ reason: String) {
    Log.warning(
      "\(isDisplay ? "" : "the base accelerometer ")\(sensor?.summary ?? "the sensor") went offline: \(reason)"
    )
    detach(restoring: false)
    setOnline(false)
    lastAbsence = ""
    scheduleRescan()
  }

  /// Records how the sensor is read and tells the daemon.
  private func describe(mode: String, reason: String) {
    description?.mode = mode
    description?.modeReason = reason
    report(.described(description))
  }

  /// Stops capturing. `restoring` writes the original sampling frequencies back; a lost
  /// sensor cannot be written to now, so its originals are kept for its next set-up.
  private func detach(restoring: Bool) {
    if description != nil { report(.described(nil)) }
    description = nil
    stopPolling()
    bufferRetryTimer = nil
    bufferRetries.reset()
    pausedCapture = nil
    closeBuffer()
    if restoring {
      frequencies?.restore()
    } else if let frequencies, let key = sensorKey {
      lostFrequencies = (key, frequencies.originalRates)
      frequencies.forget()
    }
    frequencies = nil
    sensor = nil
    converter = nil
    context = nil
  }

  // MARK: Capture

  /// Raises the sampling frequency, then polls or opens the buffer as the mode and the
  /// device allow. Returns why the sensor cannot be read at all, or nil.
  private func startCapture() -> String? {
    guard let sensor else { return nil }
    // A sensor found while nothing needs samples is set up but not read; `resume` starts it.
    if paused { return nil }
    let remembered = lostFrequencies.flatMap { $0.sensor == sensorKey ? $0.rates : nil } ?? [:]
    lostFrequencies = nil
    frequencies = SamplingFrequencies(
      raising: sensor, to: SamplingFrequencies.needed(interval: options.interval),
      remembered: remembered)
    switch options.captureMode {
    case .poll:
      // `attach` refused a device that cannot be polled.
      startPolling(reason: "--mode poll")
    case .buffer where !sensor.canBuffer, .auto where !sensor.canBuffer:
      startPolling(reason: "the device has no scan elements for accel x, y and z")
    case .buffer, .auto:
      // A device without raw attributes has no polling to fall back on: no probe.
      let given =
        options.captureMode == .buffer
        ? "--mode buffer" : sensor.canPoll ? nil : "the device has no raw attributes to poll"
      let capture: BufferCapture
      do {
        capture = try openBuffer()
      } catch {
        guard sensor.canPoll else {
          return
            "\(sensor.summary): buffered capture is unusable (\(error)), and the device has no raw attributes to poll"
        }
        startPolling(reason: "buffered capture is unusable: \(error)")
        return nil
      }
      if let given {
        Log.info("capture mode buffer (\(given)): \(bufferSummary(capture))")
        describe(mode: "buffer", reason: "\(given); \(bufferSummary(capture))")
      } else {
        describe(mode: "buffer (trying)", reason: "waiting up to 1 s for the first scan")
        startProbe()
      }
    }
    return nil
  }

  /// The sensor's identity across set-ups: where it is read, its id and its name.
  private var sensorKey: String? {
    guard let sensor, let context else { return nil }
    return "\(context.uri) \(sensor.device.id) \(sensor.device.name)"
  }

  /// The frequencies raised, for the log: `, sampling_frequency 5 -> 20 Hz`, or nothing.
  private var frequencyText: String {
    guard let changes = frequencies?.changes, !changes.isEmpty else { return "" }
    return ", " + changes.joined(separator: ", ")
  }

  private func bufferSummary(_ capture: BufferCapture) -> String { capture.summary + frequencyText }

  /// Opens the buffer and watches its descriptor.
  private func openBuffer() throws -> BufferCapture {
    guard let sensor, let context else { throw Failure("no sensor", exitCode: .software) }
    let capture = try BufferCapture(accelerometer: sensor, context: context)
    do {
      captureWatch = try loop.watch(capture.pollDescriptor) { [unowned self] events in
        self.readBuffer(hungUp: events.contains(.hangUp) || events.contains(.error))
      }
    } catch {
      capture.stop()
      throw error
    }
    self.capture = capture
    return capture
  }

  private func closeBuffer() {
    probeTimer = nil
    if let captureWatch { loop.unwatch(captureWatch) }
    captureWatch = nil
    capture?.stop()
    capture = nil
  }

  /// Gives the open buffer 1 s to deliver a scan.
  private func startProbe() {
    probeStarted = .now
    let timer = LoopTimer(loop: loop) { [unowned self] _ in self.bufferStayedSilent() }
    timer.schedule(after: Self.probeTime)
    probeTimer = timer
  }

  /// The buffer gave nothing within 1 s: poll, and try the buffer again later. Some sensors
  /// deliver only when they move, so a still device at start does not mean a dead buffer.
  private func bufferStayedSilent() {
    closeBuffer()
    let delay = bufferRetries.delayAfterFailure()
    if polling == nil {
      startPolling(
        reason: "the buffer delivered no sample within 1 s; trying it again in \(delay.wholeSeconds) s, "
          + "then further apart, up to a minute")
    } else {
      Log.debug("the buffer stayed silent again; polling goes on, next try in \(delay.wholeSeconds) s")
    }
    scheduleBufferRetry(after: delay)
  }

  /// A buffer tried again failed: keep polling, and try later.
  private func bufferRetryFailed(_ reason: String) {
    closeBuffer()
    let delay = bufferRetries.delayAfterFailure()
    Log.debug("trying the buffer again: \(reason); polling goes on, next try in \(delay.wholeSeconds) s")
    scheduleBufferRetry(after: delay)
  }

  private func scheduleBufferRetry(after delay: Duration) {
    let timer = LoopTimer(loop: loop) { [unowned self] _ in self.retryBuffer() }
    timer.schedule(after: delay)
    bufferRetryTimer = timer
  }

  /// Opens the buffer again while polling goes on; the first scan ends the polling.
  private func retryBuffer() {
    bufferRetryTimer = nil
    retryTrigger.tried(at: now)
    do {
      _ = try openBuffer()
    } catch {
      return bufferRetryFailed("\(error)")
    }
    Log.debug("trying the buffer again for up to 1 s; polling goes on meanwhile")
    startProbe()
  }

  /// The first scan came while the buffer was on trial.
  private func bufferDelivered(_ capture: BufferCapture) {
    probeTimer = nil
    bufferRetries.reset()
    let waited = probeStarted.elapsed.wholeMilliseconds
    if polling != nil {
      stopPolling()
      Log.info(
        "capture mode buffer: the buffer tried again delivered a scan after \(waited) ms; polling stopped; "
          + bufferSummary(capture))
      describe(
        mode: "buffer",
        reason: "the buffer tried again after polling delivered a scan; \(bufferSummary(capture))")
    } else {
      Log.info("capture mode buffer: the first scan came after \(waited) ms; \(bufferSummary(capture))")
      describe(
        mode: "buffer", reason: "the buffer delivered a scan after \(waited) ms; \(bufferSummary(capture))")
    }
  }

  private func readBuffer(hungUp: Bool) {
    guard let capture else { return }
    let time = clock.time(at: loop.now)
    // While polling goes on, the buffer is on trial: its failure ends the trial, not the sensor.
    let onTrial = polling != nil
    switch capture.readScans({ x, y, z in self.deliver(Double(x), Double(y), Double(z), at: time) }) {
    case .failure(let error):
      if onTrial { return bufferRetryFailed("reading the buffer failed: \(error.code)") }
      lost("reading the buffer failed: \(error.code)")
    case .success(let scans):
      if scans > 0, probeTimer != nil { bufferDelivered(capture) }
      if scans == 0, hungUp {
        if onTrial { return bufferRetryFailed("the buffer's device hung up") }
        lost("the buffer's device hung up")
      }
    }
  }

  private func startPolling(reason: String) {
    guard let sensor else { return }
    let polling = PollCapture(accelerometer: sensor)
    Log.info(
      "capture mode poll every \(options.interval.wholeMilliseconds) ms: \(reason); reading through \(polling.method)"
        + frequencyText)
    describe(mode: "poll every \(options.interval.wholeMilliseconds) ms", reason: reason)
    beginPolling(polling)
  }

  /// Polls at once, then at the interval (faster while a change is pending).
  private func beginPolling(_ polling: PollCapture) {
    self.polling = polling
    retryTrigger.forgetReading()
    let pacer = PollPacer(
      loop: loop, clock: clock, interval: options.interval
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
    guard let sensor, let polling else { return }
    let time = clock.time(at: loop.now)
    // Paced after the reading, whatever became of it: the detector says what is pending.
    defer { pacer?.paced(settlesAt: pendingSettle) }
    switch polling.read() {
    case .success(let raw):
      guard let gravity = deliver(raw.x, raw.y, raw.z, at: time) else { return }
      triggerBufferRetry(gravity: gravity, at: time)
    case .failure(.garbage(let file, let value)):
      garbageWarning.warn("\(sensor.summary): \(file) holds '\(value)', not a raw reading; sample skipped")
    case .failure(.missing(let file)):
      lost("\(file) is gone")
    case .failure(.noRawAttributes):
      lost(RawReadError.noRawAttributes.description)
    case .failure(.readFailed(let file, let code)):
      if capture != nil, !Self.meansGone(code) {
        // A buffer on trial can keep a driver from answering raw reads (EBUSY) for that second.
        Log.debug(
          "\(sensor.summary): reading \(file) failed while the buffer is tried: \(code); sample skipped")
      } else if context?.isLocal == false || Self.meansGone(code) {
        lost("reading \(file) failed: \(code)")
      } else {
        readWarning.warn("\(sensor.summary): reading \(file) failed: \(code); sample skipped")
      }
    }
  }

  /// A silent buffer waits for its next try while polling goes on: when polling sees the device
  /// move (a clearly different reading, or a change pending), a sensor hub that sends only on
  /// change may deliver now, so the buffer is tried at once, at most once a second.
  private func triggerBufferRetry(gravity: Vector3, at time: SampleTime) {
    let pending = pendingSettle != nil && displayDetector?.current != nil
    guard bufferRetryTimer != nil,
      retryTrigger.shouldTry(gravity: gravity, changePending: pending, at: time)
    else { return }
    Log.debug("the device moved: trying the buffer again now rather than at the end of its wait")
    bufferRetryTimer = nil
    do {
      _ = try openBuffer()
    } catch {
      return bufferRetryFailed("\(error)")
    }
    startProbe()
  }

  /// The display sensor's detector; nil for the base sensor.
  private var displayDetector: Detector? {
    if case .display(let detector) = role { return detector }
    return nil
  }

  /// When the change the display's detector has pending settles; nil when nothing is, and for
  /// the base sensor, whose readings decide no orientation.
  private var pendingSettle: SampleTime? { displayDetector?.settlesAt }

  /// Errors after which the device is treated as removed.
  static func meansGone(_ code: Errno) -> Bool {
    [
      .noDevice, .noSuchFile, .noSuchDeviceOrAddress, .ioError, .shutDown, .brokenPipe, .connectionReset,
      .notConnected,
    ]
    .contains(code)
  }

  /// Classifies one reading; returns its gravity, or nil when it was skipped.
  @discardableResult
  private func deliver(_ rawX: Double, _ rawY: Double, _ rawZ: Double, at time: SampleTime) -> Vector3? {
    guard let converter else { return nil }
    let raw = converter.uncorrected(rawX: rawX, rawY: rawY, rawZ: rawZ)
    // A mount matrix is read from the device too: with huge entries the product overflows
    // to infinity (or NaN), which would reach clients and the recorded trace.
    let gravity = converter.mountMatrix * raw
    guard raw.isFinite, abs(raw.x) <= Self.plausibleLimit, abs(raw.y) <= Self.plausibleLimit,
      abs(raw.z) <= Self.plausibleLimit, gravity.isFinite
    else {
      garbageWarning.warn(
        "\(sensor?.summary ?? "sensor"): reading (\(rawX), \(rawY), \(rawZ)) is out of range; sample skipped")
      hinge?.rejected(half, at: time)
      return nil
    }
    let sample = Sample(time: time, raw: raw, gravity: gravity)
    if case .display(let detector) = role { detector.handle(sample) }
    hinge?.take(sample, from: half, polled: polling != nil)
    return gravity
  }

  // MARK: Demand

  /// How capture went when it was paused.
  private enum PausedCapture {
    /// Polling (perhaps with a silent buffer waiting for its next try).
    case poll
    /// The buffer.
    case buffer
    /// The buffer, in its first second of trial in auto mode (polling takes over if it stays silent).
    case bufferOnTrial
  }

  /// Nothing needs samples: stops reading the sensor, with no timer left and the buffer
  /// disabled (a sensor hub would otherwise wake the thread with scans nobody needs), and puts
  /// the driver's own sampling frequencies back. A missing sensor is still looked for every
  /// second, as before (the daemon shows whether it is online); found, it is set up but not
  /// read until `resume`.
  func pause() {
    guard !paused else { return }
    paused = true
    guard sensor != nil else { return }
    pausedCapture =
      polling != nil ? .poll : capture == nil ? nil : probeTimer != nil ? .bufferOnTrial : .buffer
    stopPolling()
    bufferRetryTimer = nil
    closeBuffer()
    frequencies?.restore()
    frequencies = nil
    Log.debug("nothing needs samples: sampling stopped")
  }

  /// Samples are needed again: reads the sensor at once and goes on as before the pause.
  /// The detector has been told (`Detector.resume`) to take the first reading as current.
  func resume() {
    guard paused else { return }
    paused = false
    guard let sensor else { return }  // the next look for the sensor starts capture
    Log.debug("sampling resumed")
    guard let how = pausedCapture else {
      if let failure = startCapture() { lost(failure) }
      return
    }
    pausedCapture = nil
    frequencies = SamplingFrequencies(
      raising: sensor, to: SamplingFrequencies.needed(interval: options.interval))
    switch how {
    case .poll:
      beginPolling(PollCapture(accelerometer: sensor))
      // The buffer that was silent before the pause gets its next try as after its first silence.
      if options.captureMode == .auto, sensor.canBuffer {
        bufferRetries.reset()
        scheduleBufferRetry(after: bufferRetries.delayAfterFailure())
      }
    case .buffer, .bufferOnTrial:
      // A buffer may send nothing until the device moves: one reading now, where the device
      // can be read directly, makes the orientation current at once.
      if sensor.canPoll, case .success(let raw) = PollCapture(accelerometer: sensor).read() {
        deliver(raw.x, raw.y, raw.z, at: now)
      }
      do {
        _ = try openBuffer()
      } catch {
        guard sensor.canPoll else { return lost("reopening the buffer failed: \(error)") }
        return startPolling(reason: "reopening the buffer after a pause failed: \(error)")
      }
      if how == .bufferOnTrial { startProbe() }
    }
  }
}
