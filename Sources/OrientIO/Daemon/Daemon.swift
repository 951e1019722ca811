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
  private var sampler: SamplingThread?
  private var samplerWatch: Watch?
  private var failure: Failure?
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
      return try replayAsFastAsPossible(path)
    }
    defer { shutDown() }
    do {
      // Signals are blocked before the sampling thread starts, so it inherits the mask.
      signals = try SignalWatcher(loop: loop, signals: [SIGINT, SIGTERM]) { [unowned self] signal in
        Log.info("received \(signal == SIGINT ? "SIGINT" : "SIGTERM"), exiting")
        self.loop.stop()
      }
      var trace: [TraceSample]?
      if case .replay(let path) = options.source { trace = try loadTrace(path) }
      if options.servesSocket { try openSocket() }
      let sampler = try SamplingThread(
        configuration: SamplerConfiguration(
          options: options, origin: origin, trace: trace, recorder: recorder,
          failIfNoSensor: !options.servesSocket))
      recorder = nil
      self.sampler = sampler
      samplerWatch = try sampler.events.deliver(on: loop) { [unowned self] event in self.handle(event) }
      try loop.run()
    } catch let error as SystemError {
      throw Failure("\(error)", exitCode: .osError)
    } catch let failure as Failure {
      throw failure
    } catch {
      throw Failure("\(error)", exitCode: .software)
    }
    if let failure { throw failure }
    return exitCode
  }

  /// `--dump --replay`: the whole trace through the pipeline at once, no threads, no timers.
  private func replayAsFastAsPossible(_ path: String) throws(Failure) -> ExitCode {
    let samples = try loadTrace(path)
    publish(tracker.setSensor(online: true), at: samples.first?.time ?? .zero)
    var classifier = OrientationClassifier(settings: options.settings)
    for sample in samples where !outputClosed {
      recorder?.record(Sample(sample))
      if classifier.add(sample.gravity, at: sample.time) {
        publish(tracker.setDevice(classifier.current), at: sample.time)
      }
    }
    return exitCode
  }

  private func handle(_ event: SamplerEvent) {
    switch event {
    case .sensor(let online, let time):
      publish(tracker.setSensor(online: online), at: time)
    case .device(let device, let time):
      publish(tracker.setDevice(device), at: time)
      if !startupPagesReleased {
        // The first change has run the whole path once: what start-up touched beyond it can go.
        startupPagesReleased = true
        let released = StartupPages.release()
        Log.debug("released \(released) KiB of start-up code pages")
      }
    case .sample:
      break
    case .finished:
      break
    case .failed(let failure):
      self.failure = failure
      loop.stop()
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
    sampler?.stop()
    sampler = nil
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
