import Glibc
import OrientCore
import OrientSystem

/// The running daemon: one sample source feeding the tracker, whose changes go to the
/// socket's clients and are printed (`--dump`) or logged, all on one event loop.
public final class Daemon {
  private let options: DaemonOptions
  private let loop: EventLoop
  private let origin = Clock.monotonicNanoseconds
  private var tracker: OrientationTracker
  private let stateStore: StateStore?
  private var recorder: TraceRecorder?
  private var signals: SignalWatcher?
  private var polling: PollingSource?
  private var replay: ReplaySource?
  private var context: IIOContext?
  private var server: SocketServer?
  private var socketFile: (path: String, inode: ino_t)?
  private var exitCode = ExitCode.success
  private var outputClosed = false
  private var startupPagesReleased = false

  /// Prepares the daemon: loads the saved state and opens the record file.
  public init(options: DaemonOptions) throws(Failure) {
    self.options = options
    stateStore = options.persistsState ? StateStore(path: options.statePath) : nil
    let saved = stateStore?.load()
    let allowed = options.allowed ?? saved?.allowed ?? .all
    var lock = saved?.lock
    if let locked = lock, !allowed.contains(locked) {
      Log.warning("the saved lock \(locked.name) is not in the allowed set \(allowed.listText); unlocking")
      lock = nil
    }
    tracker = OrientationTracker(
      settings: options.settings, policy: ScreenPolicy(allowed: allowed, lock: lock))
    do {
      loop = try EventLoop()
    } catch {
      throw Failure("\(error)", exitCode: .osError)
    }
    if let path = options.recordPath { recorder = try TraceRecorder(path: path) }
    if let saved, saved != persistedState { persist() }
  }

  /// Runs until SIGINT or SIGTERM, or to the end of a `--dump --replay`; returns the exit status.
  public func run() throws(Failure) -> ExitCode {
    if options.dump, !options.servesSocket, case .replay(let path) = options.source {
      let samples = try loadTrace(path)
      publish(tracker.setSensor(online: true), at: samples.first?.time ?? .zero)
      for sample in samples where !outputClosed { handle(Sample(sample)) }
      return exitCode
    }
    defer { shutDown() }
    do {
      signals = try SignalWatcher(loop: loop, signals: [SIGINT, SIGTERM]) { [unowned self] signal in
        Log.info("received \(signal == SIGINT ? "SIGINT" : "SIGTERM"), exiting")
        self.loop.stop()
      }
      let start = try prepareSource()
      if options.servesSocket { try openSocket() }
      try start()
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

  // MARK: Sources

  /// Checks the source (trace file, sensor) and returns what starts it.
  private func prepareSource() throws -> () throws -> Void {
    let deliver: (Sample) -> Void = { [unowned self] sample in self.handle(sample) }
    switch options.source {
    case .demo:
      return { [unowned self] in
        Log.info("playing the built-in demo through all six orientations, looping")
        let replay = ReplaySource(
          samples: DemoTrace.samples, loopLengthMicroseconds: DemoTrace.loopMicroseconds, deliver: deliver)
        self.publish(self.tracker.setSensor(online: true), at: .zero)
        try replay.start(loop: self.loop)
        self.replay = replay
      }
    case .replay(let path):
      let samples = try loadTrace(path)
      return { [unowned self] in
        Log.info("replaying \(samples.count) samples from \(path) in real time")
        let replay = ReplaySource(samples: samples, deliver: deliver) {
          Log.info("replay of \(path) finished; keeping the last state")
        }
        self.publish(self.tracker.setSensor(online: true), at: samples.first?.time ?? .zero)
        try replay.start(loop: self.loop)
        self.replay = replay
      }
    case .iio:
      let polling = try preparePolling(deliver: deliver)
      return { [unowned self] in
        try polling.start(loop: self.loop, intervalMilliseconds: self.options.intervalMilliseconds)
        self.polling = polling
      }
    }
  }

  private func preparePolling(deliver: @escaping (Sample) -> Void) throws -> PollingSource {
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
    self.context = context
    return PollingSource(accelerometer: sensor, converter: setup.converter, origin: origin) {
      [unowned self] sample in
      if !self.tracker.sensorOnline { self.publish(self.tracker.setSensor(online: true), at: sample.time) }
      deliver(sample)
    }
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

  // MARK: Socket and state

  private func openSocket() throws {
    let path = options.socketPath
    let listener: Int32
    do {
      listener = try UnixSocket.listen(path: path, mode: mode_t(options.socketMode))
    } catch {
      switch error {
      case .inUse: throw Failure("\(error)", exitCode: .unavailable)
      case .pathTooLong: throw Failure("--socket: \(error)", exitCode: .usage)
      case .notASocket, .system: throw Failure("cannot create the socket: \(error)", exitCode: .cannotCreate)
      }
    }
    var info = stat()
    socketFile = stat(path, &info) == 0 ? (path, info.st_ino) : nil
    let permission: ControlPermission
    if let group = options.controlGroup {
      guard let restricted = ControlPermission(groupName: group) else {
        close(listener)
        throw Failure("--control-group: no group named '\(group)'", exitCode: .usage)
      }
      permission = restricted
    } else {
      permission = .everyone
    }
    raiseOpenFileLimit(to: options.maxClients + 64)
    server = try SocketServer(
      loop: loop, listener: listener, maxClients: options.maxClients, permission: permission,
      snapshot: { [unowned self] in self.tracker.snapshot },
      control: { [unowned self] command in self.control(command) },
      commit: { [unowned self] in self.persist() })
    Log.info("listening on \(path)")
  }

  private func control(_ command: ClientCommand) -> Result<[StateChange], ProtocolError> {
    let changes: [StateChange]
    do throws(PolicyError) {
      switch command {
      case .lock(let target):
        changes = try tracker.apply { (policy: inout ScreenPolicy) throws(PolicyError) in
          try policy.lock(to: target)
        }
      case .unlock:
        changes = tracker.apply { (policy: inout ScreenPolicy) in policy.unlock() }
      case .rotate(let direction):
        changes = try tracker.apply { (policy: inout ScreenPolicy) throws(PolicyError) in
          try policy.rotate(direction)
        }
      case .allow(let allowed):
        changes = tracker.apply { (policy: inout ScreenPolicy) in policy.allow(allowed) }
      default:
        return .failure(ProtocolError(.internalError, "not a control command"))
      }
    } catch {
      return .failure(ProtocolError(.notAllowed, error.description))
    }
    if !changes.isEmpty {
      announce(changes, at: SampleTime(microseconds: Int64((Clock.monotonicNanoseconds - origin) / 1000)))
    }
    return .success(changes)
  }

  private var persistedState: PersistedState {
    PersistedState(lock: tracker.policy.lock, allowed: tracker.policy.allowed)
  }

  /// Saves the lock and allowed set; a failure (a full disk) is logged and serving goes on.
  private func persist() {
    guard let stateStore else { return }
    do {
      try stateStore.save(persistedState)
    } catch {
      Log.error("cannot save the state to \(stateStore.path): \(error); the change holds until orientd stops")
    }
  }

  private func shutDown() {
    server?.shutDown()
    server = nil
    if let socketFile {
      // Remove the socket only if it is still ours, not one a newer orientd made.
      var info = stat()
      if stat(socketFile.path, &info) == 0, info.st_ino == socketFile.inode { unlink(socketFile.path) }
    }
    socketFile = nil
  }

  // MARK: Publishing

  /// Sends changes to the socket's clients, then prints or logs them.
  private func publish(_ changes: [StateChange], at time: SampleTime) {
    guard !changes.isEmpty else { return }
    server?.publish(changes)
    announce(changes, at: time)
  }

  /// Prints changes for `--dump`, or logs them.
  private func announce(_ changes: [StateChange], at time: SampleTime) {
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
