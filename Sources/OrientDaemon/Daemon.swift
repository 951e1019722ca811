import OrientConfig
import OrientCore
import OrientHooks
import OrientSystem

// Threading model
//
// orientd runs three threads, each with its own EventLoop (epoll; handlers run one at a time,
// so nothing a loop's handlers touch needs a lock):
//
// - The main thread (`Daemon`) owns the state that clients see and everything clients can make
//   happen: the OrientationTracker (device orientation, screen policy, sensor status, mode),
//   the `ChangePublisher` that fans every change out (socket, D-Bus, hooks, `--dump` or the
//   log), the socket server and its clients, the D-Bus service (`SensorProxyService`: the sd-bus
//   connection, its descriptor and timeout, the claims), the tablet-mode and lid switches (their
//   event devices and udev's monitor), the sampling demand (`SamplingDemandState`), the state
//   file's loading (`StatePersistence`), the hook runner and its children (pidfds), signals
//   (signalfd) and the watchdog timer.
// - The sampling thread (`SamplingThread`, named "orientd-sensor") owns libiio and the
//   sensors: discovery and hot-plug, polling timers or the buffer's descriptor, replay timers,
//   the `Detector` with the display sensor's classifier, and the hinge; and the reading
//   sensors (`ReadingSensors`: the light sensor, the proximity sensor and the compass, their
//   drivers, timers, buffers, evdev switch and udev's hot-plug socket). libiio calls may block
//   for seconds (a slow driver, a remote iiod); here they never delay a client.
// - The state writer (`StateWriter`, "orientd-state") owns the state file's writes: open,
//   write, fsync, rename, directory fsync, at most four coalesced writes in any second. The
//   main loop hands it `PersistedState` values with a generation number and gets back which
//   generation is durable; a control command's `ok` waits for it, the loop does not.
//
// Only mailboxes cross between the threads (a mutex-guarded queue and an eventfd each, bounded
// per kind of message): `SamplerEvent`s to the main thread (sensor online or offline, a device
// orientation change, the tilt when D-Bus is on, the sensor's description, samples while a
// client asks for them, the hinge's status, "the first sample after idle is in", a failure),
// `SamplerCommand`s to the sampling thread (new classifier settings, whether to forward samples,
// the lid switch, the sampling demand, which reading sensors to read, whether buffers may be
// taken, stop), save requests to the state writer and its
// outcomes back. The main loop decides the demand; the sampling thread only obeys it. Values
// that cross are Sendable; `TraceRecorder` is handed to the sampling thread at start and used
// only there. The log threshold is atomic, and the log is shared: its writes are serialized and
// never wait for stderr; what libiio prints on stdio's stderr becomes log lines in the thread
// that prints it (LibraryMessages).
//
// The main loop reaches the sampling thread only through `SamplerLink` (its mailboxes and
// `stop`); a test in process hands `Daemon` a scripted link instead (`DaemonSurroundings`),
// and turns the main loop itself, on the test's thread.
//
// Where new sources go: descriptors that change what clients see or that clients drive belong
// on the main loop, and what they change is published through the `ChangePublisher`; another
// sensor read through libiio belongs on the sampling thread, reporting through the same mailbox.

/// The running daemon: the main thread's loop, fed by the sampling thread, publishing every
/// change through one `ChangePublisher`.
///
/// Why this type is large (about 30 stored properties, over 500 lines): it is the main
/// thread's wiring, and every property below is owned by the main thread alone (the sampling
/// thread and the state writer own theirs, and are reached only through their mailboxes).
/// Each group is one concern: the run, the state clients see, where changes go, and what
/// feeds the loop. Decisions live in the pure types it holds (`OrientationTracker`,
/// `ReloadPlan`, `RestoredState`, the demand states); what is left here is connecting them,
/// which is why it is one place rather than split into types that would call back into it.
final class Daemon {
  // MARK: The run
  private var options: DaemonOptions
  private let configuration: Configuration?
  /// The main loop: `run` runs it; a test in process turns it a round at a time.
  let loop: EventLoop
  /// The run's time line: sample times and change times count from the start.
  private let clock = SampleClock()
  /// Why the run ends with an error, once something decided it must.
  private var failure: Failure?

  // MARK: The state clients see
  private var tracker: OrientationTracker
  /// The light level, proximity and heading as clients see them.
  private var readings = SensorReadings()
  /// Where the allowed set in force came from, for the log and `info`.
  private var allowedOrigin: AllowedOrigin
  private var sensorDescription: SensorDescription?
  /// Whether the display sensor's mount matrix agrees with a laptop in use, and its timer.
  private var matrixCheck = MountMatrixCheck()
  private var matrixCheckTimer: LoopTimer?
  /// What the lid switch says: closed, open, or nil without one.
  private var lidClosed: Bool?
  /// Why no sensor is attached, as the last look for it found.
  private var sensorAbsence: String?
  /// What the last look for reading sensors found, and how each is read, for `info`.
  private var inventory: (findings: [SensorFinding], reading: [SensorKind: String]) = ([], [:])
  /// What is wrong with `--hooks-dir`, as found at start or the last reload.
  private var hooksDirectoryProblem: String?
  /// The panel's mount the hooks' transforms add, and where it came from.
  private var panel = PanelChoice(orientation: .normal, source: "not read yet")

  // MARK: Where changes go
  private let publisher: ChangePublisher
  private var server: SocketServer?
  private var socketFile: SocketFile?
  /// `net.hadess.SensorProxy` on D-Bus, with `--dbus system|session`.
  private var sensorProxy: SensorProxyService?
  private var dump: DumpOutput?
  private let persistence: StatePersistence?
  private var recorder: TraceRecorder?
  /// Lines a client's commands make orientd log, at most this many: a flood of commands must
  /// not flood the journal (the changes they make go through the publisher's own budget).
  private var clientLines = LineBudget(perWindow: 10, window: .seconds(10))

  // MARK: What feeds the loop
  private var signals: SignalWatcher?
  private let surroundings: DaemonSurroundings
  private var sampler: (any SamplerLink)?
  private var samplerWatch: Watch?
  /// The tablet-mode and lid switches (live local IIO only), and the virtual switch.
  private let tablet: TabletInputs
  /// Whether the sensor is read, and whether the state held is stale meanwhile.
  private let demand: SamplingDemandController
  /// Which reading sensors are read.
  private let readingDemand: ReadingDemandController
  private var watchdog: LoopTimer?

  /// Prepares the daemon: loads the saved state and opens the record file. `surroundings` are
  /// the machine's in a process; a test hands it a scripted clock and sampler.
  init(
    options: DaemonOptions, configuration: Configuration? = nil, surroundings: DaemonSurroundings = .machine
  ) throws(Failure) {
    self.options = options
    self.configuration = configuration
    self.surroundings = surroundings
    let store = options.persistsState ? try StateStore(path: options.statePath) : nil
    let saved = store?.load()
    let restored = RestoredState(
      commandLine: options.allowedGiven ? options.allowed : nil, config: options.configAllowed, saved: saved,
      rotate: options.rotate)
    if let warning = restored.warning { Log.warning(warning) }
    tracker = restored.tracker
    _ = tracker.configureSuggestions(options.suggestion)
    allowedOrigin = restored.allowedOrigin
    let loop: EventLoop
    do {
      loop = try EventLoop(clock: surroundings.clock)
    } catch {
      throw Failure("\(error)", exitCode: .osError)
    }
    self.loop = loop
    publisher = ChangePublisher(loop: loop, state: tracker)
    tablet = TabletInputs(showsHingeMode: options.virtualTabletSwitch && surroundings.usesInputDevices)
    demand = SamplingDemandController(loop: loop)
    readingDemand = ReadingDemandController(loop: loop)
    persistence = store.map { StatePersistence(store: $0, loop: loop) }
    if let path = options.recordPath { recorder = try TraceRecorder(path: path) }
    demand.needs = { [unowned self] in self.needs }
    readingDemand.needed = { [unowned self] in self.readingNeeds }
    readingDemand.stopped = { [unowned self] kind in
      if kind == .hinge { return self.updateMode { $0.hingeSensorStopped() } }
      self.publish(self.readings.stopped(kind), at: self.now)
    }
    publisher.currentState = { [unowned self] in self.tracker }
    demand.modeSummary = { [unowned self] in self.tracker.mode.summary }
    guard let persistence else { return }
    persistence.current = { [unowned self] in self.persistedState }
    persistence.committed = { [unowned self] generation, failure in
      self.server?.committed(through: generation, failure: failure)
    }
    // Only where a state file can compete with the config; a plain dump stays quiet.
    Log.info(
      "allowed orientations \(tracker.policy.allowed.listText): from \(describeAllowedOrigin(full: true))")
    if let saved, saved != persistedState, let failure = persistence.saveNow(persistedState) {
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
  func run() throws(Failure) -> ExitCode {
    if options.dump, !options.servesSocket, case .replay(let path) = options.source {
      return try replayAsFastAsPossible(path)
    }
    defer { shutDown() }
    MemoryRelease.mapLargeBlocks()
    MemoryRelease.shareOneArena()
    do {
      // Signals are blocked before the sampling thread starts, so it inherits the mask.
      signals = try SignalWatcher(loop: loop, signals: [.interrupt, .terminate, .hangUp]) {
        [unowned self] signal in
        if signal == .hangUp { return self.reload() }
        Log.info("received \(signal), exiting")
        self.loop.stop()
      }
    } catch {
      throw Failure("\(error)", exitCode: .osError)
    }
    try start()
    startWatchdog()
    Systemd.notify(
      "READY=1\nSTATUS=serving orientation" + (options.servesSocket ? " on \(options.socketPath)" : ""))
    do {
      try loop.run()
    } catch {
      throw Failure("\(error)", exitCode: .osError)
    }
    return try outcome()
  }

  /// Wires the main loop: the hooks, `--dump`, the socket, D-Bus, the sampler and the
  /// switches, and sends the first demand. It does not run the loop: `run` does, in a process;
  /// a test in process turns it a round at a time, then calls `shutDown`.
  func start() throws(Failure) {
    do {
      warnIfMissing(hooksDirectory: options.hooksDirectory)
      // Once, before the first hook: the kernel's few answers come without waiting on a display.
      panel = PanelChoice.decide(setting: options.panelOrientation, kernel: surroundings.displayConnectors)
      publisher.panel = panel.orientation
      Log.info("panel \(panel.orientation.name): \(panel.source)")
      publisher.hooks = HookRunner(
        loop: loop, timeout: options.hookTimeout, inherits: HookEnvironment.isInheritedByDaemonHooks
      ) { [unowned self] in
        // None from a directory found unsafe (or missing) at start or the last reload.
        self.options.hooks.map(HookCommand.shell)
          + (self.hooksDirectoryProblem == nil
            ? self.options.hooksDirectory.map(HookCommand.directory) ?? [] : [])
      }
      if options.dump {
        let dump = DumpOutput(loop: loop)
        dump.watchForHangUp()
        publisher.dump = dump
        self.dump = dump
      }
      var trace: [TraceSample]?
      if case .replay(let path) = options.source { trace = try loadTrace(path) }
      if options.servesSocket { try openSocket() }
      publisher.server = server
      demand.server = server
      if options.bus != .off {
        let service = SensorProxyService(
          bus: options.bus, source: options.busOrientation, state: tracker.snapshot, loop: loop)
        service.claimsChanged = { [unowned self] in self.updateDemand() }
        service.buffersAllowedChanged = { [unowned self] allowed in
          self.sampler?.send(.buffersAllowed(allowed))
        }
        sensorProxy = service
        publisher.sensorProxy = service
      }
      var configuration = SamplerConfiguration(
        options: options, clock: clock, trace: trace, recorder: recorder,
        failIfNoSensor: !options.servesSocket)
      configuration.buffersAllowed = sensorProxy?.buffersAllowed ?? true
      let sampler = try surroundings.startSampler(configuration)
      recorder = nil
      self.sampler = sampler
      demand.sampler = sampler
      readingDemand.sampler = sampler
      // On the bus once the sensors have been looked for (their first inventory), as
      // iio-sensor-proxy takes its name only after finding its sensors: a client that comes
      // with the name never sees a sensor as missing that is there. A look that takes longer
      // (a remote iiod) holds the bus back for `busWait` at most.
      if options.source == .iio, sensorProxy != nil {
        let wait = LoopTimer(loop: loop) { [unowned self] _ in self.startBus() }
        wait.schedule(after: Self.busWait)
        busWaitTimer = wait
      } else {
        startBus()
      }
      samplerWatch = try sampler.events.deliver(on: loop) { [unowned self] event in self.handle(event) }
      // The demo and replays have no light sensor, proximity sensor or compass.
      if options.source != .iio { publish(readings.noSensors(), at: now) }
      if options.source == .iio, options.uri == nil, surroundings.usesInputDevices {
        tablet.watchSwitches(on: loop) { [unowned self] readings in
          self.switchesChanged(tablet: readings.tablet, lidClosed: readings.lid)
        }
      }
      updateDemand()
      // The start mixes the loop's and the kernel's SystemError with Failure (the trace, the
      // socket), so no one typed `do` covers it: each is mapped to its exit code here.
    } catch let error as SystemError {
      throw Failure("\(error)", exitCode: .osError)
    } catch let failure as Failure {
      throw failure
    } catch {
      throw Failure("\(error)", exitCode: .software)
    }
  }

  /// How the run ended, once the loop stopped: the failure that stopped it (the sampler's),
  /// else the exit status (`--dump`'s stdout may have failed).
  func outcome() throws(Failure) -> ExitCode {
    if let failure { throw failure }
    return dump?.failure ?? .success
  }

  /// `--dump --replay`: the whole trace through the same Detector as a live sensor, at once,
  /// with no threads and no timers.
  private func replayAsFastAsPossible(_ path: String) throws(Failure) -> ExitCode {
    let samples = try loadTrace(path)
    let dump = DumpOutput(loop: loop)
    publisher.dump = dump
    publish(tracker.setSensor(online: true), at: samples.first?.time ?? .zero)
    let detector = Detector(settings: options.settings, recorder: recorder) { [unowned self] report in
      self.handle(.detected(report))
    }
    for sample in samples where !dump.isClosed { detector.handle(Sample(sample)) }
    return dump.failure ?? .success
  }

  private func handle(_ event: SamplerEvent) {
    switch event {
    case .sensor(let online, let time):
      publish(tracker.setSensor(online: online), at: time)
    case .detected(.device(let device, let time)):
      // The suggestion's hold and timeout run on the loop's clock, as its timer does (a
      // replay's sample times are the trace's).
      publish(tracker.setDevice(device, at: loopTime), at: time)
      checkMountMatrix()
    case .detected(.sample(let sample)):
      publisher.publish(sample)
    case .detected(.tilt(let tilt)):
      publisher.publish(tilt)
    case .described(let description):
      sensorDescription = description
    case .absent(let reason):
      (sensorDescription, sensorAbsence) = (nil, reason)
    case .hinge(let status):
      hingeChanged(status)
    case .fresh:
      demand.freshSampleArrived()
    case .finished:
      break
    case .failed(let failure):
      self.failure = failure
      loop.stop()
    case .readings(let report):
      readingsReported(report)
    }
  }

  /// The longest the bus waits for the first look for sensors.
  static let busWait = Duration.seconds(2)
  private var busWaitTimer: LoopTimer?

  /// Connects to the bus and asks for the name, once.
  private func startBus() {
    busWaitTimer = nil
    guard let sensorProxy, !busStarted else { return }
    busStarted = true
    sensorProxy.start()
  }
  private var busStarted = false

  /// News of the reading sensors from the sampling thread.
  private func readingsReported(_ report: ReadingReport) {
    switch report {
    case .inventory(let findings, let reading):
      inventory = (findings, reading)
      startBus()
    case .present(.hinge, let present):
      updateMode { $0.setHingeSensor(present: present) }
    case .present(let kind, let present):
      publish(readings.setPresent(kind, present), at: now)
      server?.readingsChanged()
    case .value(let value):
      // A value read just before the sensor was told to stop is not current any more.
      guard readingDemand.running.contains(value.kind) else { return }
      if case .hinge(let degrees) = value { return updateMode { $0.readHingeSensor(degrees: degrees) } }
      publish(readings.take(value), at: now)
      server?.readingsChanged()
    }
  }

  /// Applies `changes` (already made to the tracker) everywhere clients see them.
  private func publish(_ changes: [StateChange], at time: SampleTime) {
    publisher.publish(changes, of: tracker, at: time)
    // Whatever changed may have started a suggestion's hold, made one, or ended it.
    if !changes.isEmpty { armSuggestionTimer() }
  }

  private var now: SampleTime { clock.now }

  // MARK: Rotation suggestion

  /// The loop's time on the run's time line: what the suggestion's hold and timeout count on,
  /// since their timer follows the loop's clock.
  private var loopTime: SampleTime { clock.time(at: loop.currentTime) }

  /// Fires when the rotation suggestion's hold or timeout ends.
  private var suggestionTimer: LoopTimer?

  /// Arms the timer for the suggestion's next deadline, or disarms it when nothing waits.
  private func armSuggestionTimer() {
    guard let deadline = tracker.suggestionDeadline else {
      suggestionTimer?.cancel()
      return
    }
    let timer =
      suggestionTimer
      ?? LoopTimer(loop: loop) { [unowned self] _ in
        self.publish(self.tracker.advanceSuggestion(to: self.loopTime), at: self.now)
        self.armSuggestionTimer()
      }
    timer.schedule(after: deadline - loopTime)
    suggestionTimer = timer
  }

  // MARK: Tablet mode

  /// The hinge's status changed (the sampling thread reports it).
  private func hingeChanged(_ status: HingeStatus) {
    updateMode { $0.hinge = status }
  }

  /// What the switches say changed (the tablet-mode switch, the lid).
  private func switchesChanged(tablet: Bool?, lidClosed: Bool?) {
    updateMode { $0.switchSaysTablet = tablet }
    self.lidClosed = lidClosed
    sampler?.send(.lid(closed: lidClosed))
  }

  /// Changes what the mode's sources say and publishes what that changed; says in the log what
  /// the cross-check of the switch and the hinge sensor made of it, once as it begins.
  private func updateMode(_ update: (inout TabletModeState) -> Void) {
    let before = tracker.mode
    publish(tracker.updateMode(update), at: now)
    for note in tracker.mode.crossCheckNotes(from: before) { Log.write(note) }
    modeChanged()
  }

  /// Looks again at whether the display reads upright in laptop use (`MountMatrixCheck`):
  /// after a change of the device orientation, the mode or the lid, and when its wait ends.
  /// Only a tablet-mode switch or a hinge sensor counts as saying laptop: a hinge from two
  /// accelerometers reads the display sensor through the same matrix, and a client's `mode
  /// laptop` is a wish.
  private func checkMountMatrix() {
    let unchecked = matrixCheck.finding == nil
    defer { if unchecked, matrixCheck.finding != nil { updateDemand() } }
    switch matrixCheck.observe(device: tracker.device, laptopInUse: laptopInUse, at: now) {
    case .idle:
      matrixCheckTimer?.cancel()
    case .checkAt(let time):
      let timer = matrixCheckTimer ?? LoopTimer(loop: loop) { [unowned self] _ in self.checkMountMatrix() }
      timer.schedule(after: max(.zero, time - now))
      matrixCheckTimer = timer
    case .found(.agrees):
      matrixCheckTimer?.cancel()
      Log.info("the display reads upright in laptop use: its mount matrix agrees")
    case .found(.wrong(let reads, _)):
      matrixCheckTimer?.cancel()
      var message =
        "the display sensor reads \(reads.name) while the machine is a laptop in use (\(tracker.mode.source.rawValue) "
        + "says laptop, lid open) for \(Int(MountMatrixCheck.persistence.inSeconds)) s: its mount matrix looks "
        + (reads == .bottomUp ? "a half turn" : "a quarter turn") + " off"
      if let fix = matrixFix {
        message +=
          "; if the laptop stood upright, this hwdb entry fixes it (not applied; check with "
          + "'orientctl calibrate'): \(fix.key) ACCEL_MOUNT_MATRIX=\(fix.matrix)"
      }
      Log.warning(message)
    }
  }

  /// Whether the machine is a laptop in use, as the mount matrix check needs it said.
  private var laptopInUse: Bool {
    [.tabletSwitch, .hingeSensor].contains(tracker.mode.source) && tracker.mode.mode == .laptop
      && lidClosed != true
  }

  /// The hwdb key and the corrected mount matrix that `matrixCheck`'s finding calls for.
  private var matrixFix: (key: String, matrix: String)? {
    guard case .wrong(_, let turn) = matrixCheck.finding, let sensor = sensorDescription else { return nil }
    return (sensor.hwdbKey, MountMatrix.formatRounded(turn * sensor.matrix))
  }

  /// The check's finding as `info` lines.
  private var matrixCheckItems: [InfoItem] {
    switch matrixCheck.finding {
    case nil:
      return [
        InfoItem(
          "matrix-check",
          "not yet: needs \(Int(MountMatrixCheck.persistence.inSeconds)) s of laptop use (a tablet-mode switch or hinge sensor saying laptop, lid open)"
        )
      ]
    case .agrees:
      return [InfoItem("matrix-check", "agrees: the display read upright in laptop use")]
    case .wrong(let reads, _):
      var items = [
        InfoItem(
          "matrix-check",
          "wrong: the display read \(reads.name) in laptop use; the mount matrix looks "
            + (reads == .bottomUp ? "a half turn" : "a quarter turn") + " off (not applied)")
      ]
      if let fix = matrixFix {
        items += [
          InfoItem("matrix-fix-key", fix.key), InfoItem("matrix-fix", "ACCEL_MOUNT_MATRIX=\(fix.matrix)"),
        ]
      }
      return items
    }
  }

  /// After any change of the mode or its sources: the sensor's demand may change, and a mode
  /// from the hinge is shown as a virtual tablet-mode switch (unless a hardware one exists).
  private func modeChanged() {
    updateDemand()
    tablet.show(tracker.mode)
    checkMountMatrix()
  }

  // MARK: Sampling demand

  /// What needs the sensor's samples now: a client that hears device changes or samples, a
  /// D-Bus client's claim, `--dump` or `--record`, a screen that follows the device, a mode that
  /// only samples can tell (the hinge), or a client waiting for a fresh state.
  private var needs: SamplingNeeds {
    var needs = SamplingNeeds()
    needs.always = options.source != .iio || options.dump || options.recordPath != nil
    needs.state = !(tracker.mode.holdsNormal && tracker.mode.modeNeedsNoSamples)
    needs.deviceSubscribers = server?.wantsDevice ?? false
    needs.sampleSubscribers = server?.wantsSamples ?? false
    needs.freshStateWaiters = server?.awaitsFreshState ?? false
    needs.busClaims = sensorProxy?.needsSamples ?? false
    needs.mountMatrixCheck = options.source == .iio && matrixCheck.finding == nil && laptopInUse
    return needs
  }

  /// The reading sensors something needs: a socket client that hears or waits for their
  /// values, a D-Bus client's claim; and the hinge sensor whenever there is one: it is a
  /// source of the mode, which every client hears.
  private var readingNeeds: Set<SensorKind> {
    let needed = (server?.wantedReadings ?? []).union(sensorProxy?.claimedReadings ?? [])
    return tracker.mode.hingeSensor.available ? needed.union([.hinge]) : needed
  }

  /// Tells the sampling thread when the demand changes.
  private func updateDemand() {
    demand.update()
    readingDemand.update()
  }

  // MARK: Socket

  private func openSocket() throws(Failure) {
    let control = try ControlAccess(groupName: options.controlGroup)
    let socket = try ListeningSocket(options: options)
    socketFile = socket.file
    raiseOpenFileLimit(to: options.maxClients + 64)
    var limits = SocketServer.Limits(
      maxClients: options.maxClients, maxClientsPerUser: options.clientsPerUserLimit)
    limits.idleTimeout = options.idleTimeout
    do {
      try persistence?.startWriter()
      server = try SocketServer(
        loop: loop, listener: socket.takeDescriptor(), limits: limits, control: control, host: self)
    } catch {
      throw Failure("\(error)", exitCode: .osError)
    }
  }

  // MARK: Control

  /// Runs a client's control command and publishes what it changed; returns whether the saved
  /// state changed (the commander's `ok` then waits until it is saved), or the error to reply.
  func control(_ command: ClientCommand) -> Result<Bool, ProtocolError> {
    // A suggestion whose time is up is gone, even where its timer has yet to fire this round.
    publish(tracker.advanceSuggestion(to: loopTime), at: now)
    let outcome: ControlOutcome
    switch tracker.control(command) {
    case .failure(let error): return .failure(error)
    case .success(let done): outcome = done
    }
    if case .allow = command { allowedOrigin = .control }
    publish(outcome.changes, at: now)
    if case .mode(let mode) = command {
      if outcome.changesOverride {
        clientLines.write(
          .info, lines: ["mode \(mode?.rawValue ?? "auto") set by a client: \(tracker.mode.summary)"])
      }
      modeChanged()
    }
    return .success(outcome.changesSavedState)
  }

  /// What `info` reports.
  private func infoItems(full: Bool) -> [InfoItem] {
    InfoReport(
      options: options, sensor: sensorDescription,
      allowedFrom: (describeAllowedOrigin(full: true), describeAllowedOrigin(full: false)),
      dbus: sensorProxy?.status ?? "off", mode: tracker.mode.summary, switches: tablet.summary,
      sampling: demand.sent, panel: panel, hooksDirectoryProblem: hooksDirectoryProblem,
      configPath: configuration?.path,
      absence: sensorAbsence, inventory: inventory, readingsRead: readingDemand.running
    ).items(full: full) + (sensorDescription == nil ? [] : matrixCheckItems)
  }

  // MARK: State file

  private var persistedState: PersistedState {
    PersistedState(
      lock: tracker.policy.lock, allowed: tracker.policy.allowed, allowedChosen: allowedOrigin.isChosen,
      configAllowed: .known(options.configAllowed), mode: tracker.mode.override)
  }

  /// Saves the lock, allowed set and mode, for a client of user `requester` (nil: for the
  /// daemon itself); returns the commit that says when it is durable, or nil when nothing needs
  /// to wait.
  private func persist(for requester: UInt32? = nil) -> UInt64? {
    persistence?.save(persistedState, for: requester)
  }

  /// Ends what `start` began: the hooks, D-Bus, the switches, the sampler, the socket and its
  /// clients; then waits for the state clients changed last to be written.
  func shutDown() {
    Systemd.notify("STOPPING=1")
    watchdog = nil
    suggestionTimer = nil
    publisher.hooks?.terminate()
    // The name goes back to the bus's queue (an iio-sensor-proxy waiting in it takes over).
    publisher.sensorProxy = nil
    sensorProxy = nil
    tablet.stop()
    sampler?.stop()
    demand.sampler = nil
    sampler = nil
    // Removed while still listening and only while still ours (a newer orientd replaces only
    // a socket nobody listens on), never one a newer orientd made.
    socketFile?.removeIfStillOurs()
    socketFile = nil
    server?.shutDown()
    publisher.server = nil
    demand.server = nil
    server = nil
    // What clients changed last is written before the exit.
    persistence?.stop()
  }

  // MARK: Service manager and reload

  private func startWatchdog() {
    guard let interval = Systemd.watchdogInterval else { return }
    let timer = LoopTimer(loop: loop) { _ in Systemd.notify("WATCHDOG=1") }
    timer.schedule(after: .zero, repeating: interval)
    watchdog = timer
    Log.debug("watchdog: notifying every \(interval.wholeMilliseconds) ms")
  }

  /// SIGHUP: reads the config file again. What `ReloadPlan` says is live applies at once, and
  /// clients stay connected; the rest is named as needing a restart. A bad file is logged and
  /// the running configuration stays.
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
    if plan.options.suggestion != options.suggestion {
      publish(tracker.configureSuggestions(plan.options.suggestion), at: now)
    }
    if let (allowed, origin) = allowedOrigin.reloaded(
      config: new.configAllowed, previousConfig: options.configAllowed, commandLineGiven: options.allowedGiven
    ) {
      allowedOrigin = origin
      publish(tracker.apply { (policy: inout ScreenPolicy) in policy.allow(allowed) }, at: now)
      let described = origin.describe(config: new.origins["allowed"] ?? configuration.path, state: nil)
      Log.info("allowed orientations \(allowed.listText): from \(described)")
    }
    publisher.hooks?.update(timeout: plan.options.hookTimeout)
    Log.threshold = plan.options.verbose ? .debug : .info
    if !plan.needRestart.isEmpty {
      Log.warning("\(plan.needRestart.joined(separator: ", ")) changed; restart orientd to apply")
    }
    warnIfMissing(hooksDirectory: plan.options.hooksDirectory)
    // Read again: a `video=` argument or a driver loaded since may have changed the answer.
    let newPanel = PanelChoice.decide(
      setting: plan.options.panelOrientation, kernel: surroundings.displayConnectors)
    if newPanel != panel {
      Log.info("panel \(newPanel.orientation.name): \(newPanel.source)")
      let turned = newPanel.orientation != panel.orientation
      panel = newPanel
      if turned { publisher.panelChanged(to: newPanel.orientation) }
    }
    options = plan.options
    // The state file records the file's allowed set whether or not it changes the set in force.
    if plan.applied.contains("allowed") { _ = persist() }
    Log.info("reloaded \(configuration.path)")
  }

  /// Says so when `--hooks-dir` names nothing usable: its hooks would silently never run.
  private func warnIfMissing(hooksDirectory directory: String?) {
    hooksDirectoryProblem = directory.flatMap(HooksDirectory.problem)
    guard let directory, let problem = hooksDirectoryProblem else { return }
    Log.warning("hooks-dir \(directory) is \(problem); no hooks run from it until that is fixed")
  }

  // MARK: The socket's sessions (SessionHost; `control(_:)` is above)

  /// Whether the sampling thread was last told to forward samples: while a client streams them.
  private var forwardsSamples = false

  /// The whole state, for a greeting or a `get` reply.
  var snapshot: [StateChange] { tracker.snapshot }

  /// The readings of the light sensor, the proximity sensor and the compass.
  var sensorReadings: SensorReadings { readings }

  /// The screen policy, for the clients' own orientations.
  var policy: ScreenPolicy { tracker.policy }

  /// The rotation suggested now, if any.
  var suggested: ScreenOrientation? { tracker.suggestion.suggested }

  /// Saves the state a control command changed; the commit its `ok` waits for, if any.
  func commit(for requester: UInt32?) -> UInt64? { persist(for: requester) }

  /// What `info` reports; with `full`, hooks and file paths too.
  func info(full: Bool) -> [InfoItem] { infoItems(full: full) }

  /// The socket's clients need something else of the sensor: samples forwarded or not, and
  /// the demand.
  func needsChanged() {
    if let server, server.wantsSamples != forwardsSamples {
      forwardsSamples = server.wantsSamples
      sampler?.send(.forwardSamples(forwardsSamples))
    }
    updateDemand()
  }
}

extension Daemon: SessionHost {}
