/// How one accelerometer is captured: looking for it, reading it through its buffer or by
/// polling, trying a silent buffer again, pausing while nothing needs samples, and losing it.
///
/// In auto mode the buffer is tried first and has 1 s (`probe`) to deliver a scan. Some
/// sensors send only when they move, so a silent buffer does not mean a dead one: polling
/// takes over and the buffer is tried again after 2 s, then further apart up to a minute
/// (`RetrySchedule`), and at once when polling sees the device move (`BufferRetryTrigger`);
/// its first scan ends the polling; a silent buffer the context has no trigger for is not
/// tried again (`Device.hasTrigger`). A buffer that cannot be opened, a device without scan
/// elements and `--mode poll` are polled; a device without raw attributes is read through its
/// buffer only. While nothing needs samples capture stops, and it goes on the same way after.
/// A sensor that cannot be found is looked for every second; one that fails is lost, and
/// looked for again.
///
/// Pure: each input carries its time and returns the actions for the driver, in order. An
/// `openBuffer` action is always the last of its list: the driver answers it with
/// `bufferOpened(at:)` or `bufferFailed(_:at:)`, and the plan goes on from the answer.
///
/// Why this file is over 300 lines: the plan is one state machine, and its states, inputs and
/// actions are declared here together so that every move between capture paths can be read
/// in one place; its extensions group the inputs by phase.
package struct CapturePlan: Sendable {
  /// How the sensor may be read (`--mode`).
  package enum Mode: Sendable {
    /// The buffer when it delivers within 1 s, polling otherwise.
    case auto
    /// Polling only.
    case poll
    /// The buffer, unless it cannot be opened.
    case buffer
  }

  /// What the plan is given once.
  package struct Settings: Equatable, Sendable {
    package var mode: Mode
    /// The poll interval while the device is handled.
    package var interval: Duration
    /// The poll interval once the device rests (`PollPace`).
    package var restingInterval: Duration
    /// What comes before the sensor's summary when the log says it went offline: nothing
    /// for the sensor orientation comes from, `the base accelerometer ` for the base.
    package var offlinePrefix: String
    /// What the sensor's absence means, in the warning that says it is absent, e.g.
    /// `serving 'sensor offline'`.
    package var whileAbsent: String
    /// Whether the first look ends the run when it finds nothing to read (`--dump`), instead
    /// of looking again. Only the first: a sensor lost later is looked for as always.
    package var endsIfAbsent: Bool

    /// The settings.
    package init(
      mode: Mode, interval: Duration, restingInterval: Duration? = nil, offlinePrefix: String = "",
      whileAbsent: String, endsIfAbsent: Bool = false
    ) {
      self.mode = mode
      self.interval = interval
      self.restingInterval = restingInterval ?? interval
      self.offlinePrefix = offlinePrefix
      self.whileAbsent = whileAbsent
      self.endsIfAbsent = endsIfAbsent
    }
  }

  /// What the device found can do.
  package struct Device: Equatable, Sendable {
    /// Its one-line identity, e.g. `iio:device0 (accel_3d)`.
    package var summary: String
    /// Whether it has raw attributes to poll.
    package var canPoll: Bool
    /// Whether accel x, y and z are scan elements, for a buffer.
    package var canBuffer: Bool
    /// Whether it is read on this machine; a remote device whose read fails is lost.
    package var isLocal: Bool
    /// Whether the context has a trigger for its buffer. A buffer without one is filled by the
    /// device's own FIFO and its interrupt, from the start or not at all: silent for its
    /// first second, it is not tried again (a bmc150 without its interrupt line enables such
    /// a buffer, never fills it, and refuses raw reads while it is enabled, so each try would
    /// stop polling for a second).
    package var hasTrigger: Bool

    /// A device.
    package init(
      summary: String, canPoll: Bool, canBuffer: Bool, isLocal: Bool = true, hasTrigger: Bool = true
    ) {
      self.summary = summary
      self.canPoll = canPoll
      self.canBuffer = canBuffer
      self.isLocal = isLocal
      self.hasTrigger = hasTrigger
    }

    /// Whether a buffer that stayed silent is worth trying again while polling goes on (a
    /// sensor hub that sends only when the device moves), in auto mode.
    var retriesSilentBuffer: Bool { canBuffer && hasTrigger }
  }

  /// Where the plan is.
  enum State: Equatable, Sendable {
    /// No sensor attached: it is being looked for. `paused` says whether it will be read
    /// once found; `saidAbsent` is the reason of absence last logged.
    case looking(paused: Bool, saidAbsent: String?)
    /// A sensor is attached and captured as `Capture` says.
    case attached(Device, Capture)
  }

  /// How an attached sensor is captured.
  enum Capture: Equatable, Sendable {
    /// Not at all: nothing needs samples. `Resume` says how capture goes on.
    case paused(Resume)
    /// The buffer is being opened (`openBuffer`), for `Opening`.
    case opening(Opening)
    /// The buffer, in its first second in auto mode (since `since`): polling takes over if it
    /// stays silent.
    case bufferOnTrial(since: SampleTime)
    /// The buffer.
    case buffer
    /// Polling, with the buffer as `BufferRetry` says.
    case polling(BufferRetry)
  }

  /// How capture goes on after a pause.
  enum Resume: Equatable, Sendable {
    /// It never started: the sensor was found while nothing needed samples.
    case start
    /// Polling (a silent buffer is tried again 2 s later, in auto mode).
    case poll
    /// The buffer.
    case buffer
    /// The buffer on trial, given its second afresh.
    case bufferOnTrial
  }

  /// Why the buffer is being opened.
  enum Opening: Equatable, Sendable {
    /// To start capture, after the sensor was found (`attach`) or sampling resumed; `given`
    /// says why the buffer is used without a trial, nil for a trial in auto mode.
    case start(Origin, given: String?)
    /// Again after a pause, on trial or not.
    case reopen(onTrial: Bool)
    /// To try a silent buffer again while polling goes on; `announced` logs the try.
    case retry(announced: Bool)
  }

  /// What started capture.
  enum Origin: Equatable, Sendable {
    /// The sensor was found: it comes online once capture starts, and a sensor that cannot
    /// be read at all is looked for again, further apart.
    case attach
    /// Sampling resumed after a pause: a sensor that cannot be read at all is lost.
    case resume
  }

  /// The silent buffer while polling goes on.
  enum BufferRetry: Equatable, Sendable {
    /// It is not tried again (the mode or the device rule it out, or it could not be opened).
    case none
    /// Its retry timer runs.
    case waiting
    /// It is open again, on trial since `since`; its first scan ends the polling.
    case onTrial(since: SampleTime)
  }

  /// How long to wait before looking for a sensor again after a failed look.
  package enum BackOff: Equatable, Sendable {
    /// A second.
    case none
    /// Further apart each time (`RetrySchedule`): a remote context refused for what it would
    /// cost, which a server may make each attempt pay once.
    case refused
    /// Further apart each time: a sensor that is there but cannot be read (its buffer may be
    /// another program's), whose every attempt writes its rates and puts them back.
    case unusable
  }

  /// What the driver does, in order.
  package enum Action: Equatable, Sendable {
    case log(LogNote)
    /// Warn, no more often than a rate limit allows, that a reading was skipped.
    case warnOfSkippedReading(String)
    /// Say how the sensor is read now (see `CaptureAnnouncement`).
    case announce(CaptureAnnouncement)
    /// Raise the sensor's sampling frequencies for capture.
    case raiseFrequencies
    /// Put the sampling frequencies raised back.
    case restoreFrequencies
    /// The buffer captures now: ask a sensor hub to report only moves, and often
    /// (`ChangeSensitivity`), and watch whether it does (`HubCadence`).
    case setHubReporting
    /// Put a sensor hub's change sensitivity and report interval back, before the frequencies.
    case restoreHubReporting
    /// Open the buffer and watch it; answer with `bufferOpened` or `bufferFailed`.
    case openBuffer
    case closeBuffer
    /// Read the sensor once now, to make the orientation current where the buffer may stay
    /// silent until the device moves.
    case readOnce
    /// Poll at once, then every interval (faster while a change is pending).
    case startPolling
    case stopPolling
    /// Give the buffer on trial this long to deliver (`probeExpired` if it does not).
    case armProbe(Duration)
    case cancelProbe
    /// Try the silent buffer again after this long (`retryDue`).
    case armRetry(Duration)
    case cancelRetry
    /// The sensor is online now, or offline.
    case online(Bool)
    /// Stop every capture of the sensor and let it go; `restoringFrequencies` writes the
    /// original rates back, else they are kept for its next set-up (it cannot be written to
    /// now).
    case detach(restoringFrequencies: Bool)
    /// Look for the sensor again after this long (`attached` or `lookFailed`).
    case lookAgain(after: Duration)
    /// Stop looking.
    case cancelLook
    /// The sensor cannot be read at all, for the reason given: a failed look (which the
    /// driver answers with `lookFailed`, unless that ends the run).
    case unusable(String)
  }

  /// How long a buffer on trial has to deliver its first scan.
  static let probe = Duration.seconds(1)
  /// The wait between looks for a sensor while none is found.
  static let lookInterval = Duration.seconds(1)

  package private(set) var settings: Settings
  var state = State.looking(paused: false, saidAbsent: nil)
  /// Whether the sensor is online as the driver last said (`online` actions). It is the
  /// plan's, not the driver's, so that a restart with new settings (`restart(with:)`) keeps a
  /// sensor online that is found again, and a look that then fails says it went offline.
  package private(set) var isOnline = false
  /// Whether no look has ended yet, neither failed nor started capture (`endsIfAbsent`).
  private var firstLook = true
  /// Whether the first look failed and `endsIfAbsent` ended the run for it: the driver hands
  /// the fault on and does nothing more.
  package private(set) var hasEnded = false
  /// Tries of a silent buffer that failed in a row.
  var bufferRetries = RetrySchedule()
  /// Tries the silent buffer at once when polling sees the device move.
  var retryTrigger = BufferRetryTrigger()
  /// Remote contexts refused in a row.
  private var refusals = RetrySchedule()
  /// Sensors found that could not be read at all, in a row.
  private var unusable = RetrySchedule()

  /// A plan that starts by looking for the sensor.
  package init(settings: Settings) { self.settings = settings }

  /// Whether nothing needs samples now.
  package var isPaused: Bool {
    switch state {
    case .looking(let paused, _): return paused
    case .attached(_, .paused): return true
    case .attached: return false
    }
  }

  /// Whether the sensor is polled now: a sample read now came from polling, not from the
  /// buffer (a polled sensor reads every interval; a buffer may deliver only when it moves).
  package var isPolling: Bool {
    switch state {
    case .attached(_, .polling), .attached(_, .opening(.retry)): return true
    default: return false
    }
  }

  /// Says the sensor is online, or offline, unless the driver was last told so already.
  mutating func becoming(online value: Bool) -> [Action] {
    guard value != isOnline else { return [] }
    isOnline = value
    return [.online(value)]
  }
}

// MARK: Looking for the sensor

extension CapturePlan {
  /// The sensor was found and set up at `time`: capture starts, unless nothing needs samples.
  package mutating func attached(_ device: Device, at time: SampleTime) -> [Action] {
    refusals.reset()
    guard case .looking(let paused, _) = state else { return [] }
    guard !paused else {
      // Set up, but not read until `resume`.
      state = .attached(device, .paused(.start))
      return startedFromAttach()
    }
    return startCapture(device, from: .attach, at: time)
  }

  /// No sensor could be found, or the one found could not be read (`fault`): says so once per
  /// reason, and looks again after a second, or further apart as the fault's `backOff` says.
  /// A first look with `endsIfAbsent` ends the run instead (`hasEnded`).
  package mutating func lookFailed(_ fault: some CaptureFault) -> [Action] {
    guard case .looking(let paused, let saidAbsent) = state, !hasEnded else { return [] }
    if firstLook, settings.endsIfAbsent {
      hasEnded = true
      return []
    }
    firstLook = false
    let reason = fault.description
    let delay: Duration
    switch fault.backOff {
    case .none: delay = Self.lookInterval
    case .refused: delay = refusals.delayAfterFailure()
    case .unusable: delay = unusable.delayAfterFailure()
    }
    var actions: [Action] = []
    if reason != saidAbsent {
      let when =
        delay == Self.lookInterval
        ? "every second" : "in \(delay.wholeSeconds) s, then further apart, up to a minute"
      actions.append(.log(.warning("\(reason); \(settings.whileAbsent) and looking again \(when)")))
    }
    state = .looking(paused: paused, saidAbsent: reason)
    // A sensor online before a restart (`restart(with:)`) that is not found again is offline.
    return becoming(online: false) + actions + [.lookAgain(after: delay)]
  }

  /// Capture ends: nothing is looked for or read any more, and the device is put back as it was.
  package mutating func stop() -> [Action] {
    let attached: Bool
    if case .attached = state { attached = true } else { attached = false }
    state = .looking(paused: isPaused, saidAbsent: nil)
    return [.cancelLook] + (attached ? [.detach(restoringFrequencies: true)] : [])
  }

  /// The settings change while capture runs (buffers are allowed now, or no longer): capture
  /// stops and puts the device back as `stop` does, and the next look reads the sensor the new
  /// way. The sensor stays online meanwhile (a sensor found again is the same one), and a
  /// paused plan stays paused; the retry schedules start over.
  package mutating func restart(with settings: Settings) -> [Action] {
    let actions = stop()
    self.settings = settings
    bufferRetries.reset()
    retryTrigger = BufferRetryTrigger()
    refusals.reset()
    unusable.reset()
    return actions
  }

  /// The sensor failed (`reason`): it goes offline and is looked for again in a second.
  mutating func lose(_ reason: String) -> [Action] {
    guard case .attached(let device, _) = state else { return [] }
    state = .looking(paused: isPaused, saidAbsent: nil)
    bufferRetries.reset()
    return [
      .log(.warning("\(settings.offlinePrefix)\(device.summary) went offline: \(reason)")),
      .detach(restoringFrequencies: false),
    ] + becoming(online: false) + [.lookAgain(after: Self.lookInterval)]
  }

  /// Capture started after the sensor was found: it is online.
  mutating func startedFromAttach() -> [Action] {
    unusable.reset()
    firstLook = false
    return becoming(online: true)
  }
}

// MARK: Starting and stopping capture

extension CapturePlan {
  /// Raises the sampling frequencies, then polls or opens the buffer as the mode and the
  /// device allow.
  private mutating func startCapture(_ device: Device, from origin: Origin, at time: SampleTime) -> [Action] {
    let polling: String?
    switch settings.mode {
    case .poll:
      // A device that cannot be polled was refused when it was found.
      polling = "--mode poll"
    case .buffer where !device.canBuffer, .auto where !device.canBuffer:
      polling = "the device has no scan elements for accel x, y and z"
    case .buffer, .auto:
      polling = nil
    }
    if let polling {
      state = .attached(device, .polling(.none))
      return [.raiseFrequencies] + startPolling(announcing: polling)
        + (origin == .attach ? startedFromAttach() : [])
    }
    // A device without raw attributes has no polling to fall back on: no trial.
    let given =
      settings.mode == .buffer
      ? "--mode buffer" : device.canPoll ? nil : "the device has no raw attributes to poll"
    state = .attached(device, .opening(.start(origin, given: given)))
    return [.raiseFrequencies, .openBuffer]
  }

  /// Starts polling, saying why when `announcing` is given.
  mutating func startPolling(announcing reason: String?) -> [Action] {
    retryTrigger.forgetReading()
    return [.startPolling] + (reason.map { [.announce(.polling(reason: $0))] } ?? [])
  }

  /// Nothing needs samples: stops reading the sensor, with no timer left and the buffer
  /// closed (a sensor hub would otherwise wake the thread with scans nobody needs), and puts
  /// the driver's own sampling frequencies back. A missing sensor is still looked for; found,
  /// it is set up but not read until `resume`.
  package mutating func pause(at time: SampleTime) -> [Action] {
    switch state {
    case .looking(_, let saidAbsent):
      state = .looking(paused: true, saidAbsent: saidAbsent)
      return []
    case .attached(_, .paused), .attached(_, .opening):
      return []
    case .attached(let device, .polling(let retry)):
      state = .attached(device, .paused(.poll))
      var actions: [Action] = [.stopPolling]
      switch retry {
      case .none: break
      case .waiting: actions.append(.cancelRetry)
      case .onTrial: actions += [.cancelProbe, .closeBuffer]
      }
      return actions + paused()
    case .attached(let device, .buffer):
      state = .attached(device, .paused(.buffer))
      return [.closeBuffer] + paused()
    case .attached(let device, .bufferOnTrial):
      state = .attached(device, .paused(.bufferOnTrial))
      return [.cancelProbe, .closeBuffer] + paused()
    }
  }

  private func paused() -> [Action] {
    [.restoreHubReporting, .restoreFrequencies, .log(.debug("nothing needs samples: sampling stopped"))]
  }

  /// Samples are needed again: reads the sensor at once and goes on as before the pause.
  package mutating func resume(at time: SampleTime) -> [Action] {
    switch state {
    case .looking(_, let saidAbsent):
      // The next look for the sensor starts capture.
      state = .looking(paused: false, saidAbsent: saidAbsent)
      return []
    case .attached(let device, .paused(let how)):
      let resumed: [Action] = [.log(.debug("sampling resumed"))]
      switch how {
      case .start:
        return resumed + startCapture(device, from: .resume, at: time)
      case .poll:
        var actions = resumed + [.raiseFrequencies] + startPolling(announcing: nil)
        state = .attached(device, .polling(.none))
        // The buffer that was silent before the pause gets its next try as after its first silence.
        if settings.mode == .auto, device.retriesSilentBuffer {
          bufferRetries.reset()
          actions.append(.armRetry(bufferRetries.delayAfterFailure()))
          state = .attached(device, .polling(.waiting))
        }
        return actions
      case .buffer, .bufferOnTrial:
        state = .attached(device, .opening(.reopen(onTrial: how == .bufferOnTrial)))
        // A buffer may send nothing until the device moves: one reading now, where the device
        // can be read directly, makes the orientation current at once.
        return resumed + [.raiseFrequencies] + (device.canPoll ? [.readOnce] : []) + [.openBuffer]
      }
    case .attached:
      return []
    }
  }
}
