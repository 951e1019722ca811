/// What the driver reports of capture itself to its `CapturePlan`: the answer to opening the
/// buffer, scans, a buffer that stayed silent or broke, the retry timer, polled readings and
/// reads that failed.
extension CapturePlan {
  /// The buffer asked for (`openBuffer`) is open and watched, at `time`.
  package mutating func bufferOpened(at time: SampleTime) -> [Action] {
    guard case .attached(let device, .opening(let opening)) = state else { return [] }
    switch opening {
    case .start(let origin, let given):
      var actions: [Action]
      if let given {
        state = .attached(device, .buffer)
        actions = [.announce(.bufferGiven(given)), .setHubReporting]
      } else {
        state = .attached(device, .bufferOnTrial(since: time))
        actions = [.announce(.bufferTrying), .armProbe(Self.probe)]
      }
      return actions + (origin == .attach ? startedFromAttach() : [])
    case .reopen(let onTrial):
      guard onTrial else {
        state = .attached(device, .buffer)
        return [.setHubReporting]
      }
      state = .attached(device, .bufferOnTrial(since: time))
      return [.armProbe(Self.probe)]
    case .retry(let announced):
      state = .attached(device, .polling(.onTrial(since: time)))
      let note: [Action] =
        announced ? [.log(.debug("trying the buffer again for up to 1 s; polling goes on meanwhile"))] : []
      return note + [.armProbe(Self.probe)]
    }
  }

  /// The buffer asked for (`openBuffer`) could not be opened (`fault`).
  package mutating func bufferFailed(_ fault: some CaptureFault, at time: SampleTime) -> [Action] {
    guard case .attached(let device, .opening(let opening)) = state else { return [] }
    let reason = fault.description
    switch opening {
    case .start(let origin, _):
      if device.canPoll {
        state = .attached(device, .polling(.none))
        return startPolling(announcing: "buffered capture is unusable: \(reason)")
          + (origin == .attach ? startedFromAttach() : [])
      }
      let failure =
        "\(device.summary): buffered capture is unusable (\(reason)), and the device has no raw attributes to poll"
      guard origin == .attach else { return lose(failure) }
      state = .looking(paused: false, saidAbsent: nil)
      return [.detach(restoringFrequencies: true), .unusable(failure)]
    case .reopen:
      guard device.canPoll else { return lose("reopening the buffer failed: \(reason)") }
      state = .attached(device, .polling(.none))
      return startPolling(announcing: "reopening the buffer after a pause failed: \(reason)")
    case .retry:
      return retryFailed(device, reason)
    }
  }

  /// Scans came from the buffer (after they were read), at `time`: a buffer on trial has
  /// delivered.
  package mutating func scansArrived(at time: SampleTime) -> [Action] {
    switch state {
    case .attached(let device, .bufferOnTrial(let since)):
      bufferRetries.reset()
      state = .attached(device, .buffer)
      return [.cancelProbe, .announce(.firstScan(after: time - since)), .setHubReporting]
    case .attached(let device, .polling(.onTrial(let since))):
      bufferRetries.reset()
      state = .attached(device, .buffer)
      return [.cancelProbe, .stopPolling, .announce(.bufferTakesOver(after: time - since)), .setHubReporting]
    default:
      return []
    }
  }

  /// Reading the buffer failed, or its device hung up with nothing to read, or was removed
  /// (`fault`): a buffer tried again while polling goes on ends its trial; otherwise the sensor
  /// is lost.
  package mutating func bufferBroke(_ fault: some CaptureFault, at time: SampleTime) -> [Action] {
    switch state {
    case .attached(let device, .polling(.onTrial)):
      return [.cancelProbe, .closeBuffer] + retryFailed(device, fault.description)
    case .attached(_, .buffer), .attached(_, .bufferOnTrial):
      return lose(fault.description)
    default:
      return []
    }
  }

  /// The buffer on trial gave nothing within its second: polling takes over (or goes on), and
  /// the buffer is tried again later.
  package mutating func probeExpired(at time: SampleTime) -> [Action] {
    let delay: Duration
    switch state {
    case .attached(let device, .bufferOnTrial) where !device.retriesSilentBuffer:
      state = .attached(device, .polling(.none))
      return [.closeBuffer]
        + startPolling(
          announcing: "the buffer delivered no sample within 1 s and has no trigger; not trying it again")
    case .attached(let device, .bufferOnTrial):
      delay = bufferRetries.delayAfterFailure()
      state = .attached(device, .polling(.waiting))
      return [.closeBuffer]
        + startPolling(
          announcing:
            "the buffer delivered no sample within 1 s; trying it again in \(delay.wholeSeconds) s, "
            + "then further apart, up to a minute") + [.armRetry(delay)]
    case .attached(let device, .polling(.onTrial)):
      delay = bufferRetries.delayAfterFailure()
      state = .attached(device, .polling(.waiting))
      return [
        .closeBuffer,
        .log(.debug("the buffer stayed silent again; polling goes on, next try in \(delay.wholeSeconds) s")),
        .armRetry(delay),
      ]
    default:
      return []
    }
  }

  /// The silent buffer's retry timer fired at `time`: it is opened again while polling goes on,
  /// unless the device rests (`deviceRests`, `PollPace`): a still device makes no sensor hub
  /// that reports on change deliver, and each try costs a dozen wake-ups for nothing; the
  /// first poll that sees the device move tries it then (`polled`).
  package mutating func retryDue(at time: SampleTime, deviceRests: Bool = false) -> [Action] {
    guard case .attached(let device, .polling(.waiting)) = state else { return [] }
    guard !deviceRests else {
      return [.log(.debug("the device rests: the buffer is tried again when it moves"))]
    }
    retryTrigger.tried(at: time)
    state = .attached(device, .opening(.retry(announced: true)))
    return [.openBuffer]
  }

  /// Polling read `gravity` at `time`, and the classifier has a change from a known
  /// orientation pending after it (`changePending`): a device that moves may make a sensor
  /// hub that sends only on change deliver now, so a silent buffer is tried at once rather
  /// than at the end of its wait, at most once a second.
  package mutating func polled(gravity: Vector3, changePending: Bool, at time: SampleTime) -> [Action] {
    // The device is bound only once a retry is due: matching it out of the state on every poll
    // copied its summary each time.
    guard case .attached(_, .polling(.waiting)) = state,
      retryTrigger.shouldTry(gravity: gravity, changePending: changePending, at: time),
      case .attached(let device, _) = state
    else { return [] }
    state = .attached(device, .opening(.retry(announced: false)))
    return [
      .log(.debug("the device moved: trying the buffer again now rather than at the end of its wait")),
      .cancelRetry, .openBuffer,
    ]
  }

  /// A poll's read failed (`fault`); its `meansDeviceGone` says whether the device is taken
  /// as removed.
  package mutating func readFailed(_ fault: some CaptureFault) -> [Action] {
    guard case .attached(let device, let capture) = state else { return [] }
    let gone = fault.meansDeviceGone
    if case .polling(.onTrial) = capture, !gone {
      // A buffer on trial can keep a driver from answering raw reads (EBUSY) for that second.
      return [.log(.debug("\(device.summary): \(fault) while the buffer is tried; sample skipped"))]
    }
    if !device.isLocal || gone { return lose(fault.description) }
    return [.warnOfSkippedReading("\(device.summary): \(fault); sample skipped")]
  }

  /// A tried buffer failed: polling goes on, and it is tried again later.
  private mutating func retryFailed(_ device: Device, _ reason: String) -> [Action] {
    let delay = bufferRetries.delayAfterFailure()
    state = .attached(device, .polling(.waiting))
    return [
      .log(
        .debug("trying the buffer again: \(reason); polling goes on, next try in \(delay.wholeSeconds) s")),
      .armRetry(delay),
    ]
  }
}
