import OrientConfig
import OrientCore
import OrientSystem

/// Everything the sampling thread needs, handed over when it starts.
struct SamplerConfiguration: Sendable {
  var options: DaemonOptions
  /// The run's time line, which live sample times are on.
  var clock: SampleClock
  /// The trace to replay, already parsed (so a bad file fails before anything starts).
  var trace: [TraceSample]?
  var recorder: TraceRecorder?
  /// Whether a missing sensor at start ends the run (`--dump`) instead of being waited for.
  var failIfNoSensor: Bool
}

/// The sampling thread: it reads the sensor and classifies its samples (see the threading
/// model in Daemon.swift).
///
/// Sensor reads may block for seconds on slow drivers or networks; on this thread they
/// never delay the daemon's clients. It runs its own event loop and tells the daemon
/// only what changed.
final class SamplingThread {
  let events: Mailbox<SamplerEvent>
  private let commands: Mailbox<SamplerCommand>
  private let thread: WorkerThread

  /// Starts sampling.
  init(configuration: SamplerConfiguration) throws(SystemError) {
    let events = try Mailbox<SamplerEvent>(kind: \.mailboxKind)
    let commands = try Mailbox<SamplerCommand>(kind: \.mailboxKind)
    self.events = events
    self.commands = commands
    thread = try WorkerThread(name: "orientd-sensor") {
      SamplingEngine(configuration: configuration, events: events, commands: commands).run()
    }
  }

  /// Sends a command to the thread.
  func send(_ command: SamplerCommand) { commands.post(command) }

  /// Asks the thread to restore the device and end; waits up to 2 s for it.
  func stop() {
    commands.post(.stop)
    if !thread.join(within: .seconds(2)) {
      Log.warning("the sensor thread did not stop within 2 s (a read is stuck); exiting anyway")
    }
  }
}

/// The sampling thread's work: a source feeding a detector, on the thread's own loop.
private final class SamplingEngine {
  private let configuration: SamplerConfiguration
  private let events: Mailbox<SamplerEvent>
  private let commands: Mailbox<SamplerCommand>

  init(configuration: SamplerConfiguration, events: Mailbox<SamplerEvent>, commands: Mailbox<SamplerCommand>)
  {
    self.configuration = configuration
    self.events = events
    self.commands = commands
  }

  func run() {
    let loop: EventLoop
    do {
      loop = try EventLoop()
    } catch {
      return events.post(.failed(Failure("sensor thread: \(error)", exitCode: .osError)))
    }
    let options = configuration.options
    var behind = RateLimitedWarning()
    let detector = Detector(settings: options.settings, recorder: configuration.recorder) { [events] report in
      let event = SamplerEvent.detected(report)
      events.post(event) {
        let kind = event.mailboxKind
        behind.warn(
          "the main loop is behind the sensor: dropped the oldest waiting \(kind.name) "
            + "(at most \(kind.limit) wait)")
      }
    }
    // Only the D-Bus service shows a tilt; without it no sample pays for the arcsine.
    detector.reportsTilt = options.bus != .off
    var iio: IIOSensorSource?
    // The base sensor is read only live, and only where the display source finds one.
    var hinge: HingeTracker?
    if case .iio = options.source {
      hinge = HingeTracker(options: options, loop: loop, clock: configuration.clock, events: events)
    }
    var replay: ReplaySource?  // kept alive until the loop ends
    var commandWatch: Watch?
    var demand = SamplingDemand.sample
    detector.fresh = { [events] time in events.post(.fresh(time: time)) }
    do {
      commandWatch = try commands.deliver(on: loop) { [events] command in
        switch command {
        case .settings(let settings): detector.update(settings: settings)
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
            iio?.pause()
            hinge?.pause()
          } else {
            detector.resume()
            iio?.resume()
            hinge?.resume()
          }
        case .stop: loop.stop()
        }
      }
      switch options.source {
      case .iio:
        let source = IIOSensorSource(
          role: .display(detector), options: options, loop: loop, clock: configuration.clock, hinge: hinge,
          events: events, failIfAbsent: configuration.failIfNoSensor)
        source.start()
        iio = source
      case .demo:
        Log.info("playing the built-in demo through all six orientations, looping")
        events.post(.sensor(online: true, time: .zero))
        let source = ReplaySource(
          samples: DemoTrace.samples, loopLength: DemoTrace.loopLength,
          deliver: { detector.handle($0) })
        source.start(loop: loop)
        replay = source
      case .replay(let path):
        let samples = configuration.trace ?? []
        Log.info("replaying \(samples.count) samples from \(path) in real time")
        events.post(.sensor(online: true, time: samples.first?.time ?? .zero))
        let source = ReplaySource(samples: samples, deliver: { detector.handle($0) }) { [events] in
          Log.info("replay of \(path) finished; keeping the last state")
          events.post(.finished)
        }
        source.start(loop: loop)
        replay = source
      }
      try loop.run()
    } catch {
      events.post(.failed(Failure("sensor thread: \(error)", exitCode: .osError)))
    }
    iio?.stop()
    hinge?.stop()
    withExtendedLifetime(replay) {}
    if let commandWatch { loop.unwatch(commandWatch) }
  }
}
