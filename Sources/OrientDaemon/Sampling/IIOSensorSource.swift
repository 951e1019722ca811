import OrientConfig
import OrientCore
import OrientIIO
import OrientSystem

/// Reads an IIO accelerometer on the sampling thread: finds it, captures through a buffer
/// or by polling, and survives it going away and coming back.
///
/// While attached, only the capture wakes the thread (a poll timer, or the kernel
/// delivering scans). While no sensor is attached, it looks again every second.
final class IIOSensorSource {
  private let options: DaemonOptions
  private let loop: EventLoop
  private let origin: UInt64
  private let detector: Detector
  private let events: Mailbox<SamplerEvent>
  private var failIfAbsent: Bool

  private var context: IIOContext?
  private var sensor: Accelerometer?
  private var converter: SampleConverter?
  private var capture: BufferCapture?
  private var captureWatch: Watch?
  private var polling: PollCapture?
  private var pollTimer: LoopTimer?
  private var probeTimer: LoopTimer?
  private var rescanTimer: LoopTimer?
  private var probeStarted: UInt64 = 0
  private var online = false
  private var lastAbsence = ""
  private var description: SensorDescription?
  private var garbageWarning = RateLimitedWarning()
  private var readWarning = RateLimitedWarning()
  /// Remote contexts refused in a row, for spacing out the next attempts.
  private var refusals = 0

  /// The wait between looks for a sensor while none is attached.
  static let rescanNanoseconds: UInt64 = 1_000_000_000
  /// The longest a buffer may stay silent in auto mode before polling takes over.
  static let probeNanoseconds: UInt64 = 1_000_000_000
  /// Readings beyond this many g are garbage, not gravity.
  static let plausibleLimit = 32.0

  /// Prepares the source; `failIfAbsent` makes a missing sensor at start fatal (`--dump`).
  init(
    options: DaemonOptions, loop: EventLoop, origin: UInt64, detector: Detector,
    events: Mailbox<SamplerEvent>,
    failIfAbsent: Bool
  ) {
    self.options = options
    self.loop = loop
    self.origin = origin
    self.detector = detector
    self.events = events
    self.failIfAbsent = failIfAbsent
  }

  /// Attaches to the sensor, or starts looking for one.
  func start() { attach() }

  /// Stops capturing and restores what buffered capture changed on the device.
  func stop() {
    rescanTimer = nil
    detach()
  }

  private var now: SampleTime { sampleTime(Clock.monotonicNanoseconds) }

  private func sampleTime(_ monotonicNanoseconds: UInt64) -> SampleTime {
    SampleTime(microseconds: Int64((monotonicNanoseconds - origin) / 1000))
  }

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
    do {
      context = try openContext(uri: options.uri)
      udev = context.isLocal ? UdevProperties() : nil
      let sensors = SensorDiscovery.accelerometers(in: context, udev: udev)
      sensor = try SensorDiscovery.choose(from: sensors, selector: options.device, context: context)
      reason = SensorDiscovery.reason(for: sensor, among: sensors, selector: options.device)
    } catch {
      if failIfAbsent { return events.post(.failed(error)) }
      // A context refused for what it would cost: a server that shows a small context to the
      // size check and a large one to libiio makes each attempt cost that much once, so
      // attempts are spaced further apart each time, up to a minute.
      if error.exitCode == .dataError {
        refusals += 1
        return absent(error.message, after: min(Self.rescanNanoseconds << min(refusals, 6), 60_000_000_000))
      }
      return absent(error.message)
    }
    refusals = 0
    failIfAbsent = false
    lastAbsence = ""
    if options.uri != nil { context.setTimeout(milliseconds: 2000) }
    let setup = SensorSetup(
      accelerometer: sensor, matrixOption: options.mountMatrix, udev: udev, warn: { Log.warning($0) })
    self.context = context
    self.sensor = sensor
    converter = setup.converter
    detector.sensor = Detector.Sensor(setup)
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
    startCapture()
    setOnline(true)
  }

  /// No sensor now: say so once per reason, and look again after `delay` (a second).
  private func absent(_ reason: String, after delay: UInt64 = rescanNanoseconds) {
    if reason != lastAbsence {
      let when =
        delay == Self.rescanNanoseconds
        ? "every second" : "in \(delay / 1_000_000_000) s, then further apart, up to a minute"
      Log.warning("\(reason); serving 'sensor offline' and looking again \(when)")
      lastAbsence = reason
    }
    scheduleRescan(after: delay)
  }

  private func scheduleRescan(after delay: UInt64 = rescanNanoseconds) {
    guard rescanTimer == nil else { return }
    let timer = LoopTimer(loop: loop) { [unowned self] _ in self.attach() }
    timer.schedule(afterNanoseconds: delay)
    rescanTimer = timer
  }

  private func setOnline(_ value: Bool) {
    guard value != online else { return }
    online = value
    events.post(.sensor(online: value, time: now))
  }

  /// The sensor is gone or failing: stop, go offline, keep the orientation, look again.
  private func lost(_ reason: String) {
    Log.warning("\(sensor?.summary ?? "the sensor") went offline: \(reason)")
    detach()
    setOnline(false)
    lastAbsence = ""
    scheduleRescan()
  }

  /// Records how the sensor is read and tells the daemon.
  private func describe(mode: String, reason: String) {
    description?.mode = mode
    description?.modeReason = reason
    events.post(.described(description))
  }

  private func detach() {
    if description != nil { events.post(.described(nil)) }
    description = nil
    pollTimer = nil
    polling = nil
    probeTimer = nil
    if let captureWatch { loop.unwatch(captureWatch) }
    captureWatch = nil
    capture?.stop()
    capture = nil
    sensor = nil
    converter = nil
    context = nil
  }

  // MARK: Capture

  private func startCapture() {
    guard let sensor, let context else { return }
    let supported = BufferCapture.isSupported(by: sensor)
    switch options.captureMode {
    case .poll:
      startPolling(reason: "--mode poll")
    case .buffer where !supported, .auto where !supported:
      startPolling(reason: "the device has no scan elements for accel x, y and z")
    case .buffer, .auto:
      do {
        let capture = try BufferCapture(accelerometer: sensor, context: context)
        self.capture = capture
        captureWatch = try loop.watch(capture.pollDescriptor) { [unowned self] events in
          self.readBuffer(hungUp: events.contains(.hangUp) || events.contains(.error))
        }
        if options.captureMode == .buffer {
          Log.info("capture mode buffer (--mode buffer): \(capture.summary)")
          describe(mode: "buffer", reason: "--mode buffer; \(capture.summary)")
        } else {
          describe(mode: "buffer (trying)", reason: "waiting up to 1 s for the first scan")
          probeStarted = Clock.monotonicNanoseconds
          let timer = LoopTimer(loop: loop) { [unowned self] _ in self.bufferStayedSilent() }
          timer.schedule(afterNanoseconds: Self.probeNanoseconds)
          probeTimer = timer
        }
      } catch {
        capture?.stop()
        capture = nil
        startPolling(reason: "buffered capture is unusable: \(error)")
      }
    }
  }

  private func bufferStayedSilent() {
    probeTimer = nil
    if let captureWatch { loop.unwatch(captureWatch) }
    captureWatch = nil
    capture?.stop()
    capture = nil
    startPolling(reason: "the buffer delivered no sample within 1 s")
  }

  private func readBuffer(hungUp: Bool) {
    guard let capture else { return }
    let time = sampleTime(loop.now)
    switch capture.readScans({ x, y, z in self.deliver(Double(x), Double(y), Double(z), at: time) }) {
    case .failure(let error):
      lost("reading the buffer failed: \(error.code)")
    case .success(let scans):
      if scans > 0, probeTimer != nil {
        probeTimer = nil
        let waited = (Clock.monotonicNanoseconds - probeStarted) / 1_000_000
        Log.info("capture mode buffer: the first scan came after \(waited) ms; \(capture.summary)")
        describe(mode: "buffer", reason: "the buffer delivered a scan after \(waited) ms; \(capture.summary)")
      }
      if scans == 0, hungUp { lost("the buffer's device hung up") }
    }
  }

  private func startPolling(reason: String) {
    guard let sensor else { return }
    let polling = PollCapture(accelerometer: sensor)
    self.polling = polling
    Log.info(
      "capture mode poll every \(options.intervalMilliseconds) ms: \(reason); reading through \(polling.method)"
    )
    describe(mode: "poll every \(options.intervalMilliseconds) ms", reason: reason)
    let timer = LoopTimer(loop: loop) { [unowned self] _ in self.poll() }
    let interval = UInt64(options.intervalMilliseconds) * 1_000_000
    timer.schedule(afterNanoseconds: 0, repeatingEveryNanoseconds: interval)
    pollTimer = timer
  }

  private func poll() {
    guard let sensor, let polling else { return }
    let time = sampleTime(loop.now)
    switch polling.read() {
    case .success(let raw):
      deliver(raw.x, raw.y, raw.z, at: time)
    case .failure(.garbage(let file, let value)):
      garbageWarning.warn("\(sensor.summary): \(file) holds '\(value)', not a raw reading; sample skipped")
    case .failure(.missing(let file)):
      lost("\(file) is gone")
    case .failure(.readFailed(let file, let code)):
      if context?.isLocal == false || Self.meansGone(code) {
        lost("reading \(file) failed: \(code)")
      } else {
        readWarning.warn("\(sensor.summary): reading \(file) failed: \(code); sample skipped")
      }
    }
  }

  /// Errors after which the device is treated as removed.
  static func meansGone(_ code: Errno) -> Bool {
    [
      .noDevice, .noSuchFile, .noSuchDeviceOrAddress, .ioError, .shutDown, .brokenPipe, .connectionReset,
      .notConnected,
    ]
    .contains(code)
  }

  private func deliver(_ rawX: Double, _ rawY: Double, _ rawZ: Double, at time: SampleTime) {
    guard let converter else { return }
    let raw = converter.uncorrected(rawX: rawX, rawY: rawY, rawZ: rawZ)
    // A mount matrix is read from the device too: with huge entries the product overflows
    // to infinity (or NaN), which would reach clients and the recorded trace.
    let gravity = converter.mountMatrix * raw
    guard raw.isFinite, abs(raw.x) <= Self.plausibleLimit, abs(raw.y) <= Self.plausibleLimit,
      abs(raw.z) <= Self.plausibleLimit, gravity.isFinite
    else {
      garbageWarning.warn(
        "\(sensor?.summary ?? "sensor"): reading (\(rawX), \(rawY), \(rawZ)) is out of range; sample skipped")
      return
    }
    detector.handle(Sample(time: time, raw: raw, gravity: gravity))
  }
}
