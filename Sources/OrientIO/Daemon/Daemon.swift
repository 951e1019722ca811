import Glibc
import OrientCore

/// The running daemon: one sample source feeding the tracker, whose changes are
/// printed (`--dump`) or logged, all on one event loop.
public final class Daemon {
  private let options: DaemonOptions
  private let loop: EventLoop
  private let origin = Clock.monotonicNanoseconds
  private var tracker: OrientationTracker
  private var recorder: TraceRecorder?
  private var signals: SignalWatcher?
  private var polling: PollingSource?
  private var replay: ReplaySource?
  private var context: IIOContext?
  private var exitCode = ExitCode.success
  private var outputClosed = false
  private var startupPagesReleased = false

  /// Prepares the daemon; opening the loop or the record file can fail.
  public init(options: DaemonOptions) throws(Failure) {
    self.options = options
    tracker = OrientationTracker(settings: options.settings, policy: ScreenPolicy(allowed: options.allowed))
    do {
      loop = try EventLoop()
    } catch {
      throw Failure("\(error)", exitCode: .osError)
    }
    if let path = options.recordPath { recorder = try TraceRecorder(path: path) }
  }

  /// Runs until SIGINT or SIGTERM, or to the end of a `--dump --replay`; returns the exit status.
  public func run() throws(Failure) -> ExitCode {
    if options.dump, case .replay(let path) = options.source {
      let samples = try loadTrace(path)
      publish(tracker.setSensor(online: true), at: samples.first?.time ?? .zero)
      for sample in samples where !outputClosed { handle(Sample(sample)) }
      return exitCode
    }
    do {
      signals = try SignalWatcher(loop: loop, signals: [SIGINT, SIGTERM]) { [unowned self] signal in
        Log.info("received \(signal == SIGINT ? "SIGINT" : "SIGTERM"), exiting")
        self.loop.stop()
      }
      try startSource()
      try loop.run()
    } catch let error as SystemError {
      throw Failure("\(error)", exitCode: .osError)
    } catch let failure as Failure {
      throw failure
    } catch {
      throw Failure("\(error)", exitCode: .software)
    }
    return exitCode
  }

  private func startSource() throws {
    let deliver: (Sample) -> Void = { [unowned self] sample in self.handle(sample) }
    switch options.source {
    case .demo:
      Log.info("playing the built-in demo through all six orientations, looping")
      let replay = ReplaySource(
        samples: DemoTrace.samples, loopLengthMicroseconds: DemoTrace.loopMicroseconds, deliver: deliver)
      publish(tracker.setSensor(online: true), at: .zero)
      try replay.start(loop: loop)
      self.replay = replay
    case .replay(let path):
      let samples = try loadTrace(path)
      Log.info("replaying \(samples.count) samples from \(path) in real time")
      let replay = ReplaySource(samples: samples, deliver: deliver) {
        Log.info("replay of \(path) finished; keeping the last state")
      }
      publish(tracker.setSensor(online: true), at: samples.first?.time ?? .zero)
      try replay.start(loop: loop)
      self.replay = replay
    case .iio:
      try startPolling(deliver: deliver)
    }
  }

  private func startPolling(deliver: @escaping (Sample) -> Void) throws {
    let context = try openContext(uri: options.uri)
    let udev = context.isLocal ? UdevProperties() : nil
    let sensors = SensorDiscovery.accelerometers(in: context, udev: udev)
    let sensor = try SensorDiscovery.choose(from: sensors, selector: options.device, context: context)
    let setup = SensorSetup(
      accelerometer: sensor, matrixOption: options.mountMatrix, udev: udev, warn: { Log.warning($0) })
    Log.info(
      "using \(sensor.summary) in \(context.uri), location \(sensor.location.rawValue), "
        + "scale \(setup.scaleText), mount matrix \(MountMatrix.format(setup.matrix.matrix)) "
        + "from \(setup.matrix.source); polling every \(options.intervalMilliseconds) ms")
    let polling = PollingSource(accelerometer: sensor, converter: setup.converter, origin: origin) {
      [unowned self] sample in
      if !self.tracker.sensorOnline { self.publish(self.tracker.setSensor(online: true), at: sample.time) }
      deliver(sample)
    }
    try polling.start(loop: loop, intervalMilliseconds: options.intervalMilliseconds)
    self.context = context
    self.polling = polling
  }

  private func handle(_ sample: Sample) {
    recorder?.record(sample)
    if Log.isVerbose {
      let g = sample.gravity
      Log.debug(
        "sample \(sample.time.secondsText) \(DecimalFormatting.fixed(g.x, decimals: 3)) "
          + "\(DecimalFormatting.fixed(g.y, decimals: 3)) \(DecimalFormatting.fixed(g.z, decimals: 3)) "
          + "proposes \(orientationName(tracker.classifier.proposal(for: g)))")
    }
    let changes = tracker.add(sample.gravity, at: sample.time)
    publish(changes, at: sample.time)
    if !startupPagesReleased, !changes.isEmpty {
      // The first change has run the whole path once: what start-up touched beyond it can go.
      startupPagesReleased = true
      let released = StartupPages.release()
      Log.debug("released \(released) KiB of start-up code pages")
    }
  }

  private func publish(_ changes: [StateChange], at time: SampleTime) {
    for change in changes {
      guard options.dump else {
        Log.info(change.line)
        continue
      }
      switch change {
      case .device, .orientation:
        let line = "\(time.secondsText) \(change.line)\n"
        if case .failure(let error) = FileDescriptor.standardOutput.writeAll(line) {
          // A closed reader (`orientd --dump | head -1`) ends the run quietly.
          if error.code != EPIPE {
            Log.error("cannot write to stdout: \(error)")
            exitCode = .ioError
          }
          outputClosed = true
          loop.stop()
        }
      default:
        break
      }
    }
  }
}
