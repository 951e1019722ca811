import OrientConfig
import OrientCore
import OrientHooks
import OrientInput
import OrientSystem

// Threading model
//
// orientd runs three threads, each with its own EventLoop (epoll; handlers run one at a time,
// so nothing a loop's handlers touch needs a lock):
//
// - The main thread (`Daemon`) owns the state that clients see: the OrientationTracker
//   (device orientation, screen policy, sensor status), the socket server and its clients,
//   the D-Bus service (`SensorProxyService`: the sd-bus connection, its descriptor and
//   timeout, the claims), the state file's loading, the hook runner and its children
//   (pidfds), signals (signalfd) and the watchdog timer. Everything clients can make happen
//   runs here.
// - The sampling thread (`SamplingThread`, named "orientd-sensor") owns libiio and the
//   sensor: discovery and hot-plug, polling timers or the buffer's descriptor, replay timers,
//   and the `Detector` with the sensor's classifier. libiio calls may block for seconds (a
//   slow driver, a remote iiod); here they never delay a client.
// - The state writer (`StateWriter`, "orientd-state") owns the state file's writes: open,
//   write, fsync, rename, directory fsync, at most four coalesced writes in any second. The
//   main loop hands it `PersistedState` values with a generation number and gets back which
//   generation is durable; a control command's `ok` waits for it, the loop does not.
//
// Only mailboxes cross between the threads (a mutex-guarded queue and an eventfd each):
// `SamplerEvent`s to the main thread (sensor online or offline, a device orientation change,
// the tilt when D-Bus is on, the sensor's description, samples while a client asks for them,
// the hinge's status, "the first sample after idle is in", a failure),
// `SamplerCommand`s to the sampling thread (new classifier settings, whether to forward
// samples, the lid switch, the sampling demand, stop), save requests to the state writer and
// its outcomes back. The main loop decides the demand (what clients, D-Bus claims and the mode
// need); the sampling thread only obeys it. Values that cross are Sendable; `TraceRecorder` is handed to the sampling
// thread at start and used only there. The log threshold is atomic.
// The log is shared too: its writes are serialized and never wait for stderr; what libiio
// prints on stdio's stderr becomes log lines in the thread that prints it (LibraryMessages).
//
// Where new sources go: descriptors that change what clients see or that clients drive
// (like the D-Bus connection; input devices such as a tablet-mode switch) belong on the main loop;
// another sensor read through libiio (a second accelerometer) belongs on the sampling thread,
// with its own Detector, reporting through the same mailbox.

/// The running daemon: the main thread's loop, fed by the sampling thread, publishing to the
/// socket's clients and printing (`--dump`) or logging every change.
public final class Daemon {
  private var options: DaemonOptions
  private let configuration: Configuration?
  private let loop: EventLoop
  /// The run's time line: sample times and change times count from the start.
  private let clock = SampleClock()
  private var tracker: OrientationTracker
  private let stateStore: StateStore?
  private var stateWriter: StateWriter?
  private var stateWriterWatch: Watch?
  private var saveFailure = RateLimitedWarning()
  /// Change lines logged per second at most; a control flood must not flood the journal.
  private var changeLog = LineBudget(perWindow: 20, window: .seconds(1))
  private var recorder: TraceRecorder?
  private var signals: SignalWatcher?
  private var sampler: SamplingThread?
  private var samplerWatch: Watch?
  private var failure: Failure?
  private var server: SocketServer?
  private var socketFile: SocketFile?
  private var exitCode = ExitCode.success
  private var outputClosed = false
  private var outputWatch: Watch?
  private var hooks: HookRunner?
  /// `net.hadess.SensorProxy` on D-Bus, with `--dbus system|session`.
  private var sensorProxy: SensorProxyService?
  private var watchdog: LoopTimer?
  private var lastScreen: ScreenOrientation?
  /// The tablet-mode and lid switches (live IIO only).
  private var switches: TabletSwitchWatcher?
  /// The uinput switch showing a mode from the hinge; tried once (it logs once on failure).
  private var virtualSwitch: VirtualTabletSwitch?
  private var virtualSwitchTried = false
  /// The demand last sent to the sampling thread.
  private var sentDemand = SamplingDemand.sample
  /// Gives up waiting for a fresh sample after resuming.
  private var freshWait: LoopTimer?
  private var sensorDescription: SensorDescription?
  /// What is wrong with `--hooks-dir`, as found at start or the last reload.
  private var hooksDirectoryProblem: String?
  /// Where the allowed set in force came from, for the log and `info`.
  private var allowedOrigin: AllowedOrigin

  /// Prepares the daemon: loads the saved state and opens the record file.
  public init(options: DaemonOptions, configuration: Configuration? = nil) throws(Failure) {
    self.options = options
    self.configuration = configuration
    stateStore = options.persistsState ? try StateStore(path: options.statePath) : nil
    let saved = stateStore?.load()
    // The newest intent wins: the command line, else a config value edited since the state was
    // saved, else the saved set (`orientctl allow` survives restarts), else the config file.
    let (allowed, allowedOrigin) = AllowedOrigin.choose(
      commandLine: options.allowedGiven ? options.allowed : nil, config: options.configAllowed, saved: saved)
    self.allowedOrigin = allowedOrigin
    var lock = saved?.lock
    if let locked = lock, !allowed.contains(locked) {
      Log.warning("the saved lock \(locked.name) is not in the allowed set \(allowed.listText); unlocking")
      lock = nil
    }
    tracker = OrientationTracker(
      policy: ScreenPolicy(allowed: allowed, lock: lock),
      mode: TabletModeState(policy: options.rotate, override: saved?.mode))
    do {
      loop = try EventLoop()
    } catch {
      throw Failure("\(error)", exitCode: .osError)
    }
    if let path = options.recordPath { recorder = try TraceRecorder(path: path) }
    // Only where a state file can compete with the config; a plain dump stays quiet.
    if stateStore != nil {
      Log.info("allowed orientations \(allowed.listText): from \(describeAllowedOrigin(full: true))")
    }
    if let saved, saved != persistedState, let stateStore, let failure = saveNow(stateStore) {
      Log.error(failure)
    }
  }

  /// Where the allowed set came from; without `full` (a client that may not control), no path.
  private func describeAllowedOrigin(full: Bool) -> String {
    allowedOrigin.describe(
      config: full ? options.origins["allowed"] : nil,
      state: full && options.persistsState ? options.statePath : nil)
  }

  /// Runs until SIGINT or SIGTERM, or to the end of a `--dump --replay`; returns the exit status.
  public func run() throws(Failure) -> ExitCode {
    if options.dump, !options.servesSocket, case .replay(let path) = options.source {
      return try replayAsFastAsPossible(path)
    }
    defer { shutDown() }
    MemoryRelease.mapLargeBlocks()
    do {
      // Signals are blocked before the sampling thread starts, so it inherits the mask.
      signals = try SignalWatcher(loop: loop, signals: [.interrupt, .terminate, .hangUp]) {
        [unowned self] signal in
        if signal == .hangUp { return self.reload() }
        Log.info("received \(signal), exiting")
        self.loop.stop()
      }
      lastScreen = tracker.orientation
      warnIfMissing(hooksDirectory: options.hooksDirectory)
      hooks = HookRunner(loop: loop, timeout: options.hookTimeout) { [unowned self] in
        self.options.hooks.map(HookCommand.shell)
          + (self.options.hooksDirectory.map(HookCommand.directory) ?? [])
      }
      var trace: [TraceSample]?
      if case .replay(let path) = options.source { trace = try loadTrace(path) }
      if options.servesSocket { try openSocket() }
      if options.bus != .off {
        sensorProxy = SensorProxyService(
          bus: options.bus, source: options.busOrientation, state: tracker.snapshot, loop: loop)
        sensorProxy?.claimsChanged = { [unowned self] in self.updateDemand() }
      }
      let sampler = try SamplingThread(
        configuration: SamplerConfiguration(
          options: options, clock: clock, trace: trace, recorder: recorder,
          failIfNoSensor: !options.servesSocket))
      recorder = nil
      self.sampler = sampler
      samplerWatch = try sampler.events.deliver(on: loop) { [unowned self] event in self.handle(event) }
      if options.source == .iio, options.uri == nil {
        let watcher = TabletSwitchWatcher(loop: loop) { [unowned self] readings in
          self.switchesChanged(tablet: readings.tablet, lidClosed: readings.lid)
        }
        switches = watcher
        watcher.start()
      }
      updateDemand()
      try startWatchdog()
      if options.dump { watchOutputForHangUp() }
      Systemd.notify(
        "READY=1\nSTATUS=serving orientation" + (options.servesSocket ? " on \(options.socketPath)" : ""))
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

  /// `--dump`: ends the run as soon as stdout's reader goes away (`orientd --dump | head -1`),
  /// not at the next change, which may never come on a still device. epoll always reports
  /// an error or hang-up, so no event is asked for. A file cannot be watched and never goes
  /// away.
  private func watchOutputForHangUp() {
    outputWatch = try? loop.watch(StandardStream.output.descriptor, for: []) { [unowned self] _ in
      guard let watch = self.outputWatch else { return }
      self.loop.unwatch(watch)
      self.outputWatch = nil
      self.outputClosed = true
      self.loop.stop()
    }
  }

  /// `--dump --replay`: the whole trace through the same Detector as a live sensor, at once,
  /// with no threads and no timers.
  private func replayAsFastAsPossible(_ path: String) throws(Failure) -> ExitCode {
    let samples = try loadTrace(path)
    publish(tracker.setSensor(online: true), at: samples.first?.time ?? .zero)
    let detector = Detector(settings: options.settings, recorder: recorder) { [unowned self] report in
      self.handle(.detected(report))
    }
    for sample in samples where !outputClosed { detector.handle(Sample(sample)) }
    return exitCode
  }

  private func handle(_ event: SamplerEvent) {
    switch event {
    case .sensor(let online, let time):
      publish(tracker.setSensor(online: online), at: time)
    case .detected(.device(let device, let time)):
      publish(tracker.setDevice(device), at: time)
    case .detected(.sample(let sample)):
      server?.publish(sample)
    case .detected(.tilt(let tilt)):
      sensorProxy?.publish(tilt: tilt)
    case .described(let description):
      sensorDescription = description
    case .hinge(let status):
      hingeChanged(status)
    case .fresh:
      sampleIsFresh()
    case .finished:
      break
    case .failed(let failure):
      self.failure = failure
      loop.stop()
    }
  }

  // MARK: Tablet mode

  /// The hinge's status changed (the sampling thread reports it).
  private func hingeChanged(_ status: HingeStatus) {
    publish(tracker.updateMode { $0.hinge = status }, at: now)
    modeChanged()
  }

  /// What the switches say changed (the tablet-mode switch, the lid).
  private func switchesChanged(tablet: Bool?, lidClosed: Bool?) {
    publish(tracker.updateMode { $0.switchSaysTablet = tablet }, at: now)
    sampler?.send(.lid(closed: lidClosed))
    modeChanged()
  }

  /// After any change of the mode or its sources: the sensor's demand may change, and a mode
  /// from the hinge is shown as a virtual tablet-mode switch (unless a hardware one exists).
  private func modeChanged() {
    updateDemand()
    let mode = tracker.mode
    guard options.virtualTabletSwitch, mode.switchSaysTablet == nil, mode.hinge.available else { return }
    if !virtualSwitchTried {
      virtualSwitchTried = true
      virtualSwitch = VirtualTabletSwitch()
    }
    if mode.hinge.mode != .unknown { virtualSwitch?.set(tablet: mode.hinge.mode == .tablet) }
  }

  /// Whether anything needs the sensor's samples: a client that hears device changes or
  /// samples, a D-Bus client's claim, `--dump` or `--record`, a screen that follows the device,
  /// a mode that only samples can tell (the hinge), or a client waiting for a fresh state.
  private var demand: SamplingDemand {
    guard options.source == .iio, !options.dump, options.recordPath == nil else { return .sample }
    let mode = tracker.mode
    guard mode.holdsNormal, mode.modeNeedsNoSamples else { return .sample }
    if let server, server.wantsDevice || server.wantsSamples || server.awaitsFreshState { return .sample }
    if sensorProxy?.needsSamples == true { return .sample }
    return .idle
  }

  /// Tells the sampling thread when the demand changes. While idle, the device orientation
  /// held is stale: greetings and `get` wait for the first sample after sampling resumes.
  private func updateDemand() {
    let new = demand
    guard new != sentDemand else { return }
    sentDemand = new
    sampler?.send(.demand(new))
    if new == .idle {
      Log.info("nothing needs the sensor now (\(tracker.mode.summary)); sampling stops")
      server?.holdsStaleState = true
      freshWait?.cancel()
    } else if server?.holdsStaleState == true {
      Log.info("sampling resumes")
      // A sensor that does not deliver within a second must not keep clients waiting.
      let timer = LoopTimer(loop: loop) { [unowned self] _ in
        Log.warning("no fresh sample within 1 s of resuming; serving the last known state")
        self.sampleIsFresh()
      }
      timer.schedule(after: .seconds(1))
      freshWait = timer
    }
  }

  /// The first sample after an idle stretch has been classified: the state is current.
  private func sampleIsFresh() {
    freshWait = nil
    guard sentDemand == .sample, let server, server.holdsStaleState else { return }
    server.holdsStaleState = false
    server.stateIsFresh()
    updateDemand()
  }

  // MARK: Socket and state

  private func openSocket() throws {
    let permission: ControlPermission
    if let group = options.controlGroup {
      guard let restricted = ControlPermission(groupName: group) else {
        throw Failure("--control-group: no group named '\(group)'", exitCode: .usage)
      }
      permission = restricted
    } else {
      permission = .everyone
    }
    let listener = try listeningSocket()
    raiseOpenFileLimit(to: options.maxClients + 64)
    try startStateWriter()
    var limits = SocketServer.Limits(
      maxClients: options.maxClients, maxClientsPerUser: options.clientsPerUserLimit)
    limits.idleTimeout = options.idleTimeout
    server = try SocketServer(
      loop: loop, listener: listener, limits: limits, permission: permission,
      snapshot: { [unowned self] in self.tracker.snapshot },
      control: { [unowned self] command in self.control(command) },
      commit: { [unowned self] in self.persist() },
      info: { [unowned self] full in self.infoItems(full: full) },
      samplesWanted: { [unowned self] wanted in
        self.sampler?.send(.forwardSamples(wanted))
        self.updateDemand()
      },
      needsChanged: { [unowned self] in self.updateDemand() })
  }

  /// The socket passed by systemd, else a new one at `--socket`.
  private func listeningSocket() throws -> FileDescriptor {
    if let activated = try Systemd.activatedListener() {
      // systemd owns the socket file: use its descriptor and leave the file alone on exit.
      Log.info("using the socket passed by systemd")
      return activated
    }
    let path = options.socketPath
    let listener: UnixListener
    do {
      listener = try UnixSocket.listen(path: path, mode: options.socketMode)
    } catch {
      switch error {
      case .inUse: throw Failure("\(error)", exitCode: .unavailable)
      case .pathTooLong: throw Failure("--socket: \(error)", exitCode: .usage)
      case .directory(_, let refusal):
        throw Failure("refusing the \(error)", exitCode: refusal.isUnsafe ? .config : .cannotCreate)
      case .notASocket, .system:
        throw Failure("cannot create the socket: \(error)", exitCode: .cannotCreate)
      }
    }
    socketFile = listener.file
    Log.info("listening on \(path)")
    return listener.takeDescriptor()
  }

  private func control(_ command: ClientCommand) -> Result<
    (changes: [StateChange], saves: Bool), ProtocolError
  > {
    let changes: [StateChange]
    if case .mode(let mode) = command {
      let before = tracker.mode.override
      changes = tracker.updateMode { $0.override = mode }
      if !changes.isEmpty { announce(changes, at: now) }
      if before != tracker.mode.override {
        Log.info("mode \(mode?.rawValue ?? "auto") set by a client: \(tracker.mode.summary)")
      }
      modeChanged()
      return .success((changes, before != tracker.mode.override))
    }
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
        allowedOrigin = .control
      default:
        return .failure(ProtocolError(.internalError, "not a control command"))
      }
    } catch {
      return .failure(ProtocolError(.notAllowed, error.description))
    }
    if !changes.isEmpty {
      announce(changes, at: now)
    }
    return .success((changes, !changes.isEmpty))
  }

  /// What `info` reports: the sensor, then the settings that shape what clients see; with
  /// `full` (for clients that may control), the hooks and the files orientd uses too.
  private func infoItems(full: Bool) -> [InfoItem] {
    var items: [InfoItem] = [InfoItem("version", orientdVersion)]
    switch options.source {
    case .iio:
      items += sensorDescription?.items ?? [InfoItem("sensor", "none attached")]
    case .demo:
      items.append(InfoItem("sensor", "the built-in demo"))
    case .replay(let path):
      items.append(InfoItem("sensor", full ? "replay of \(path)" : "a replayed trace"))
    }
    let settings = options.settings
    items += [
      InfoItem("threshold", String(settings.threshold)), InfoItem("hysteresis", String(settings.hysteresis)),
      InfoItem("shake-tolerance", String(settings.shakeTolerance)),
      InfoItem("settle", "\(settings.settle.wholeMilliseconds) ms"),
      InfoItem("allowed-from", describeAllowedOrigin(full: full)),
      InfoItem("dbus", sensorProxy?.status ?? "off"),
      InfoItem("mode", tracker.mode.summary),
      InfoItem("switches", switches?.summary ?? "none"),
      InfoItem("sampling", sentDemand == .idle ? "stopped (nothing needs the sensor)" : "on"),
    ]
    guard full else { return items }
    items += options.hooks.map { InfoItem("hook", $0) }
    if let directory = options.hooksDirectory {
      items.append(InfoItem("hooks-dir", directory))
      if let problem = hooksDirectoryProblem { items.append(InfoItem("hooks-dir-problem", problem)) }
    }
    items.append(InfoItem("hook-timeout", "\(options.hookTimeout.inSeconds) s"))
    if let configuration { items.append(InfoItem("config", configuration.path)) }
    items.append(InfoItem("state-file", options.persistsState ? options.statePath : "none"))
    return items
  }

  private var persistedState: PersistedState {
    PersistedState(
      lock: tracker.policy.lock, allowed: tracker.policy.allowed, allowedChosen: allowedOrigin.isChosen,
      configAllowed: .known(options.configAllowed), mode: tracker.mode.override)
  }

  /// Starts the thread that saves the state, when there is a state file.
  private func startStateWriter() throws {
    guard let stateStore else { return }
    let writer = try StateWriter(store: stateStore, writesPerSecond: Self.savesPerSecond)
    stateWriterWatch = try writer.outcomes.deliver(on: loop) { [unowned self] outcome in self.handle(outcome)
    }
    stateWriter = writer
  }

  /// The state is written at most this many times in any second; a flood of changes is
  /// coalesced into that many writes.
  static let savesPerSecond = 4

  /// Saves the lock and allowed set off the loop; returns the commit that says when it is
  /// durable, or nil when nothing needs to wait.
  private func persist() -> UInt64? {
    guard let stateStore else { return nil }
    if let stateWriter { return stateWriter.save(persistedState) }
    // Without the writer thread (it could not start, or the socket is off): save here.
    if let failure = saveNow(stateStore) { Log.error(failure) }
    return nil
  }

  /// Saves at once on this thread; the failure's text, or nil.
  private func saveNow(_ stateStore: StateStore) -> String? {
    do {
      try stateStore.save(persistedState)
      return nil
    } catch {
      return "cannot save the state to \(stateStore.path): \(error); the change holds until orientd stops"
    }
  }

  private func handle(_ outcome: StateWriter.Outcome) {
    switch outcome {
    case .saved(let generation):
      server?.committed(through: generation)
    case .failed(let generation, let reason):
      let failure =
        "cannot save the state to \(stateStore?.path ?? "?"): \(reason); the change holds until orientd stops"
      saveFailure.warn(failure)
      server?.committed(through: generation, failure: failure)
    case .unavailable(let reason):
      Log.error("the state writer stopped (\(reason)); saving on the main loop from now on")
      stateWriter = nil
      if let stateWriterWatch { loop.unwatch(stateWriterWatch) }
      stateWriterWatch = nil
      let failure = stateStore.flatMap(saveNow)
      if let failure { Log.error(failure) }
      server?.committed(through: .max, failure: failure)
    }
  }

  private func shutDown() {
    Systemd.notify("STOPPING=1")
    watchdog = nil
    hooks?.terminate()
    // The name goes back to the bus's queue (an iio-sensor-proxy waiting in it takes over).
    sensorProxy = nil
    switches?.stop()
    switches = nil
    virtualSwitch = nil
    sampler?.stop()
    sampler = nil
    server?.shutDown()
    server = nil
    // What clients changed last is written before the exit.
    stateWriter?.stop()
    stateWriter = nil
    // Removed only while it is still ours, not one a newer orientd made.
    socketFile?.removeIfStillOurs()
    socketFile = nil
  }

  // MARK: Service manager and reload

  private func startWatchdog() throws {
    guard let interval = Systemd.watchdogInterval else { return }
    let timer = LoopTimer(loop: loop) { _ in Systemd.notify("WATCHDOG=1") }
    timer.schedule(after: .zero, repeating: interval)
    watchdog = timer
    Log.debug("watchdog: notifying every \(interval.wholeMilliseconds) ms")
  }

  /// SIGHUP: reads the config file again. New tunables, allowed set and hooks apply at once;
  /// clients stay connected. A bad file is logged and the running configuration stays.
  private func reload() {
    guard let configuration else { return Log.info("received SIGHUP; there is no configuration to reload") }
    Systemd.notify("RELOADING=1")
    defer { Systemd.notify("READY=1") }
    let new: DaemonOptions
    do {
      new = try configuration.load()
    } catch {
      return Log.error(
        "reloading \(configuration.path) failed: \(error.message); keeping the running configuration")
    }
    let plan = ReloadPlan(running: options, loaded: new)
    if plan.options.settings != options.settings { sampler?.send(.settings(plan.options.settings)) }
    // The state file records the file's value whether or not it changes the set.
    let configAllowedChanged = plan.applied.contains("allowed")
    if let (allowed, origin) = allowedOrigin.reloaded(
      config: new.configAllowed, previousConfig: options.configAllowed, commandLineGiven: options.allowedGiven
    ) {
      allowedOrigin = origin
      let changes = tracker.apply { (policy: inout ScreenPolicy) in policy.allow(allowed) }
      publish(changes, at: now)
      let described = origin.describe(config: new.origins["allowed"] ?? configuration.path, state: nil)
      Log.info("allowed orientations \(allowed.listText): from \(described)")
    }
    hooks?.update(timeout: plan.options.hookTimeout)
    Log.threshold = plan.options.verbose ? .debug : .info
    if !plan.needRestart.isEmpty {
      Log.warning("\(plan.needRestart.joined(separator: ", ")) changed; restart orientd to apply")
    }
    warnIfMissing(hooksDirectory: plan.options.hooksDirectory)
    options = plan.options
    if configAllowedChanged { _ = persist() }
    Log.info("reloaded \(configuration.path)")
  }

  /// Says so when `--hooks-dir` names nothing usable: its hooks would silently never run.
  /// Also keeps the problem for `info`, which must not stat a path (perhaps on a slow network
  /// file system) on the loop for every client that asks.
  private func warnIfMissing(hooksDirectory directory: String?) {
    hooksDirectoryProblem = directory.flatMap(Self.problem(hooksDirectory:))
    guard let directory, let problem = hooksDirectoryProblem else { return }
    Log.warning("hooks-dir \(directory) is \(problem); no hooks run from it until it is one")
  }

  /// "missing" or "not a directory" when `directory` cannot hold hooks; nil when it can.
  private static func problem(hooksDirectory directory: String) -> String? {
    let status = try? FileSystem.status(of: directory)
    guard status?.kind != .directory else { return nil }
    return status == nil ? "missing" : "not a directory"
  }

  private var now: SampleTime { clock.now }

  // MARK: Publishing

  /// Sends changes to the socket's clients, then prints or logs them.
  private func publish(_ changes: [StateChange], at time: SampleTime) {
    guard !changes.isEmpty else { return }
    server?.publish(changes)
    announce(changes, at: time)
  }

  /// Prints changes for `--dump`, or logs them, and runs the hooks for a new screen orientation.
  private func announce(_ changes: [StateChange], at time: SampleTime) {
    sensorProxy?.publish(changes)
    // Hooks run once per batch that turns the screen or changes the mode (a desktop may turn
    // its on-screen keyboard on in tablet mode).
    if let hooks, changes.contains(where: { $0.key == "orientation" || $0.key == "mode" }) {
      hooks.trigger(
        HookEnvironment.variables(
          orientation: tracker.orientation, previous: lastScreen, device: tracker.device,
          mode: tracker.mode.mode))
      lastScreen = tracker.orientation
    }
    // One write for the whole batch: a change of device and screen orientation is one wake-up.
    guard options.dump else { return changeLog.write(.info, lines: changes.map(\.line)) }
    var text = ""
    for change in changes {
      switch change {
      case .device, .orientation: text += "\(time.secondsText) \(change.line)\n"
      default: break
      }
    }
    guard !text.isEmpty else { return }
    do {
      try StandardStream.output.write(text)
      return
    } catch  where error.code == .brokenPipe {
      // A closed reader (`orientd --dump | head -1`) ends the run quietly.
    } catch {
      Log.error("cannot write to stdout: \(error)")
      exitCode = .ioError
    }
    outputClosed = true
    loop.stop()
  }

}
