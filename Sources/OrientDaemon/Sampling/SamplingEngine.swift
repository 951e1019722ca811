import OrientCore
import OrientIIO
import OrientSystem

/// The sampling thread's work, on the thread's own loop: the sensors' drivers, or a replay,
/// feeding the `Detector` and the `Hinge`, as the daemon's commands say.
///
/// The engine owns both accelerometer drivers and wires them: the display sensor's samples go
/// to the detector and then to the hinge, the base sensor's to the hinge only, and only the
/// display sensor's news (online, offline, how it is read) reach the daemon. The base
/// sensor's driver starts only once a look of the display's has seen a base sensor, so a
/// machine with one accelerometer gets no second driver, nor its wake-ups.
final class SamplingEngine {
  private let configuration: SamplerConfiguration
  private let events: Mailbox<SamplerEvent>
  private let commands: Mailbox<SamplerCommand>
  private let detector: Detector
  private var demand = SamplingDemand.sample
  private var display: AccelerometerDriver?
  private var base: AccelerometerDriver?
  private var hinge: Hinge?
  /// The light sensor, the proximity sensor and the compass.
  private var readings: ReadingSensors?
  /// Whether capture may take buffers (not while another daemon owns the bus name).
  private var buffersAllowed: Bool
  /// Kept alive until the loop ends.
  private var replay: ReplaySource?
  /// Sensors' location problems already logged: the display's driver looks again every second
  /// while no sensor is usable, and each problem is said once.
  private var reportedProblems: Set<String> = []

  private var settings: SamplingSettings { configuration.settings }

  /// An engine that reports through `events` and obeys `commands`.
  init(configuration: SamplerConfiguration, events: Mailbox<SamplerEvent>, commands: Mailbox<SamplerCommand>)
  {
    self.configuration = configuration
    self.events = events
    self.commands = commands
    buffersAllowed = configuration.buffersAllowed
    var behind = RateLimitedWarning()
    detector = Detector(settings: configuration.settings.classifier, recorder: configuration.recorder) {
      [events] report in
      let event = SamplerEvent.detected(report)
      events.post(event) {
        let kind = event.mailboxKind
        behind.warn(
          "the main loop is behind the sensor: dropped the oldest waiting \(kind.name) "
            + "(at most \(kind.limit) wait)")
      }
    }
    // Only the D-Bus service shows a tilt; without it no sample pays for the arcsine.
    detector.reportsTilt = configuration.settings.reportsTilt
    detector.fresh = { [events] time in events.post(.fresh(time: time)) }
  }

  /// Runs the thread's loop until `stop`, then puts the sensors back as they were.
  func run() {
    let loop: EventLoop
    do {
      loop = try EventLoop()
    } catch {
      return events.post(.failed(Failure("sensor thread: \(error)", exitCode: .osError)))
    }
    var commandWatch: Watch?
    do {
      commandWatch = try commands.deliver(on: loop) { [unowned self] command in self.obey(command, loop: loop)
      }
      start(on: loop)
      try loop.run()
    } catch {
      events.post(.failed(Failure("sensor thread: \(error)", exitCode: .osError)))
    }
    display?.close()
    base?.close()
    readings?.stop()
    if let commandWatch { loop.unwatch(commandWatch) }
  }

  private func obey(_ command: SamplerCommand, loop: EventLoop) {
    switch command {
    case .settings(let settings):
      detector.update(settings: settings)
      classifierChanged()
    case .forwardSamples(let enabled): detector.forwardsSamples = enabled
    case .lid(let closed): hinge?.setLid(closed: closed)
    case .demand(let wanted):
      guard wanted != demand else { break }
      demand = wanted
      // Replays and the demo are no sensor: they play on through idle, so their state stays
      // exact (a paused replay would also shift its timeline), and resuming is at once.
      if replay != nil {
        if wanted == .sample { events.post(.fresh(time: detector.lastSampleTime ?? .zero)) }
      } else if wanted == .idle {
        display?.setNeeded(false)
        base?.setNeeded(false)
      } else {
        detector.resume()
        classifierChanged()
        display?.setNeeded(true)
        base?.setNeeded(true)
      }
    case .readingNeeds(let kinds): readings?.setNeeded(kinds)
    case .buffersAllowed(let allowed):
      buffersAllowed = allowed
      display?.setBuffersAllowed(allowed)
      base?.setBuffersAllowed(allowed)
      readings?.setBuffersAllowed(allowed)
    case .stop: loop.stop()
    }
  }

  private func start(on loop: EventLoop) {
    switch settings.source {
    case .iio:
      startSensors(on: loop)
      let readings = ReadingSensors(
        settings: ReadingSensors.Settings(uri: settings.uri, mode: settings.mode), loop: loop
      ) { [events] report in events.post(.readings(report)) }
      readings.setBuffersAllowed(buffersAllowed)
      readings.start()
      self.readings = readings
    case .demo:
      Log.info("playing the built-in demo through all six orientations, looping")
      events.post(.sensor(online: true, time: .zero))
      let source = ReplaySource(
        samples: DemoTrace.samples, loopLength: DemoTrace.loopLength,
        sink: { [detector] in detector.handle($0) })
      source.start(loop: loop)
      replay = source
    case .replay(let path):
      let samples = configuration.trace ?? []
      Log.info("replaying \(samples.count) samples from \(path) in real time")
      events.post(.sensor(online: true, time: samples.first?.time ?? .zero))
      let source = ReplaySource(samples: samples, sink: { [detector] in detector.handle($0) }) { [events] in
        Log.info("replay of \(path) finished; keeping the last state")
        events.post(.finished)
      }
      source.start(loop: loop)
      replay = source
    }
  }

  /// Tells the display sensor's driver what the classifier has pending, after anything that
  /// may change it (a sample, new settings, resuming).
  private func classifierChanged() {
    display?.setPending(
      detector.settlesAt.map { PendingChange(settlesAt: $0, fromKnownOrientation: detector.current != nil) })
  }

  // MARK: The accelerometers

  /// Reads the sensor orientation comes from, and the hinge's base sensor once there is one.
  private func startSensors(on loop: EventLoop) {
    let hinge = Hinge(interval: settings.interval, events: events)
    self.hinge = hinge
    let driver = AccelerometerDriver(
      configuration: AccelerometerDriver.Configuration(
        choice: .named(settings.device), uri: settings.uri, matrixOption: settings.mountMatrix,
        plan: CapturePlan.Settings(
          mode: settings.mode, interval: settings.interval, restingInterval: settings.restingInterval,
          whileAbsent: "serving 'sensor offline'",
          endsIfAbsent: configuration.failIfNoSensor), buffersAllowed: buffersAllowed),
      loop: loop, clock: configuration.clock)
    display = driver
    driver.open(
      handlers: AccelerometerDriver.Handlers(
        sample: { [unowned self] sample, polled in
          self.detector.handle(sample)
          self.classifierChanged()
          hinge.take(sample, from: .display, polled: polled)
        },
        rejected: { time in hinge.rejected(.display, at: time) },
        online: { [events] value, summary, time in
          events.post(.sensor(online: value, time: time))
          hinge.online(.display, value, summary: summary)
        },
        described: { [events] description in events.post(.described(description)) },
        absent: { [events] reason in events.post(.absent(reason)) },
        setUp: { [detector] setup in detector.sensor = Detector.Sensor(setup) },
        surveyed: { [unowned self] survey in self.surveyed(survey, loop: loop) },
        failed: { [events] error in events.post(.failed(Failure(error))) },
        quiet: { [unowned self] time in
          self.detector.quiet(until: time)
          self.classifierChanged()
        }))
  }

  /// A look of the display sensor's driver saw `survey`: says what is wrong with where
  /// sensors sit, once each, and reads the base sensor too where there is one.
  private func surveyed(_ survey: SensorSurvey, loop: EventLoop) {
    for problem in survey.sensors.compactMap(\.locationProblem)
    where reportedProblems.insert(problem).inserted {
      Log.warning(problem)
    }
    guard let chosen = survey.chosen, SensorDiscovery.base(among: survey.sensors, besides: chosen) != nil
    else {
      return
    }
    startBase(on: loop)
  }

  /// Reads the base sensor for the hinge (once; its driver then follows it going away and
  /// coming back).
  private func startBase(on loop: EventLoop) {
    guard base == nil, let hinge else { return }
    hinge.baseFound()
    // The hinge pairs the two sensors' readings when they are at most an interval and a half
    // apart (`HingePairing`): the display sensor no longer slows down at rest either.
    display?.restEvery(settings.interval)
    let driver = AccelerometerDriver(
      configuration: AccelerometerDriver.Configuration(
        // --mount-matrix is the display sensor's: the base sensor has its own.
        choice: .base(besides: settings.device), uri: settings.uri, matrixOption: nil,
        plan: CapturePlan.Settings(
          // Never slower at rest: the hinge pairs readings at most an interval and a half apart.
          mode: settings.mode, interval: settings.interval, offlinePrefix: "the base accelerometer ",
          whileAbsent: "no hinge angle meanwhile"), buffersAllowed: buffersAllowed),
      loop: loop, clock: configuration.clock)
    base = driver
    // Found while nothing needs samples: set up, but not read until `resume`.
    if demand == .idle { driver.setNeeded(false) }
    driver.open(
      handlers: AccelerometerDriver.Handlers(
        sample: { sample, polled in hinge.take(sample, from: .base, polled: polled) },
        rejected: { time in hinge.rejected(.base, at: time) },
        // The base sensor reaches the daemon only through the hinge's status, so that it never
        // passes for the sensor orientation comes from.
        online: { value, summary, _ in hinge.online(.base, value, summary: summary) },
        described: { _ in }, absent: { _ in }, setUp: { _ in }, surveyed: { _ in }, failed: { _ in }))
  }
}
