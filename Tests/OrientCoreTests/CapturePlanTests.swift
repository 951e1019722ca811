import Testing

@testable import OrientCore

private let both = CapturePlan.Device(summary: "iio:device0 (accel_3d)", canPoll: true, canBuffer: true)
private let pollOnly = CapturePlan.Device(summary: "iio:device0 (accel_3d)", canPoll: true, canBuffer: false)
private let bufferOnly = CapturePlan.Device(
  summary: "iio:device0 (accel_3d)", canPoll: false, canBuffer: true)

private func plan(_ mode: CapturePlan.Mode) -> CapturePlan {
  CapturePlan(
    settings: CapturePlan.Settings(
      mode: mode, interval: .milliseconds(200), whileAbsent: "serving 'sensor offline'"))
}

private func at(_ milliseconds: Int64) -> SampleTime { SampleTime(sinceOrigin: .milliseconds(milliseconds)) }

private let probe = CapturePlan.Action.armProbe(.seconds(1))
private let pausedNote = CapturePlan.Action.log(.debug("nothing needs samples: sampling stopped"))
private let resumedNote = CapturePlan.Action.log(.debug("sampling resumed"))

/// The warning, detach, offline and look of a sensor lost for `reason`.
private func lost(_ reason: String, prefix: String = "") -> [CapturePlan.Action] {
  [
    .log(.warning("\(prefix)iio:device0 (accel_3d) went offline: \(reason)")),
    .detach(restoringFrequencies: false),
    .online(false), .lookAgain(after: .seconds(1)),
  ]
}

/// An auto-mode plan whose buffer stayed silent for its first second: polling, with the
/// buffer's retry 2 s away.
private func silentBuffer() -> CapturePlan {
  var capture = plan(.auto)
  _ = capture.attached(both, at: at(0))
  _ = capture.bufferOpened(at: at(0))
  _ = capture.probeExpired(at: at(1000))
  return capture
}

@Suite("The capture plan: buffer, trial, polling, retries")
struct CapturePlanTests {
  @Test(
    "Auto mode: the buffer gets 1 s on trial, and its first scan makes it the capture, reporting on change")
  func bufferOnTrialDelivers() {
    var capture = plan(.auto)
    #expect(capture.attached(both, at: at(0)) == [.raiseFrequencies, .openBuffer])
    #expect(capture.bufferOpened(at: at(5)) == [.announce(.bufferTrying), probe, .online(true)])
    #expect(capture.state == .attached(both, .bufferOnTrial(since: at(5))))
    #expect(
      capture.scansArrived(at: at(305)) == [
        .cancelProbe, .announce(.firstScan(after: .milliseconds(300))), .setHubReporting,
      ])
    #expect(capture.state == .attached(both, .buffer))
    // Later scans change nothing; the probe is gone.
    #expect(capture.scansArrived(at: at(400)).isEmpty)
    #expect(capture.probeExpired(at: at(1005)).isEmpty)
  }

  @Test(
    "A buffer silent for its second gives way to polling, and is tried again 2, 4, 8... s later, up to a minute"
  )
  func silentBufferRetries() {
    var capture = plan(.auto)
    _ = capture.attached(both, at: at(0))
    _ = capture.bufferOpened(at: at(0))
    #expect(
      capture.probeExpired(at: at(1000)) == [
        .closeBuffer, .startPolling,
        .announce(
          .polling(
            reason:
              "the buffer delivered no sample within 1 s; trying it again in 2 s, then further apart, up to a minute"
          )),
        .armRetry(.seconds(2)),
      ])
    var waits: [Duration] = [.seconds(2)]
    for round in 1...6 {
      let start = Int64(round) * 100_000
      #expect(capture.retryDue(at: at(start)) == [.openBuffer])
      #expect(
        capture.bufferOpened(at: at(start)) == [
          .log(.debug("trying the buffer again for up to 1 s; polling goes on meanwhile")), probe,
        ])
      let actions = capture.probeExpired(at: at(start + 1000))
      guard case .armRetry(let wait) = actions.last else {
        Issue.record("no retry after \(actions)")
        return
      }
      #expect(actions.first == .closeBuffer)
      #expect(
        actions.dropFirst().first
          == .log(
            .debug("the buffer stayed silent again; polling goes on, next try in \(wait.wholeSeconds) s")))
      waits.append(wait)
    }
    #expect(waits == [2, 4, 8, 16, 32, 60, 60].map { Duration.seconds($0) })
  }

  @Test(
    "A silent buffer the context has no trigger for gives way to polling for good: no timer, no move and no pause tries it again"
  )
  func silentBufferWithoutTrigger() {
    let untriggered = CapturePlan.Device(
      summary: "iio:device0 (bmc150_accel)", canPoll: true, canBuffer: true, hasTrigger: false)
    var capture = plan(.auto)
    // The trial at start is as for any buffer: a FIFO the device fills itself may deliver.
    #expect(capture.attached(untriggered, at: at(0)) == [.raiseFrequencies, .openBuffer])
    #expect(capture.bufferOpened(at: at(0)) == [.announce(.bufferTrying), probe, .online(true)])
    #expect(
      capture.probeExpired(at: at(1000)) == [
        .closeBuffer, .startPolling,
        .announce(
          .polling(
            reason: "the buffer delivered no sample within 1 s and has no trigger; not trying it again")),
      ])
    #expect(capture.state == .attached(untriggered, .polling(.none)))
    // The device moves, a change is pending: polling goes on, no try.
    #expect(capture.polled(gravity: Vector3(0, -1, 0), changePending: false, at: at(1200)).isEmpty)
    #expect(capture.polled(gravity: Vector3(1, 0, 0), changePending: true, at: at(1400)).isEmpty)
    #expect(capture.retryDue(at: at(3000)).isEmpty)
    // A pause and a resume poll again, with no retry armed.
    #expect(capture.pause(at: at(4000)).first == .stopPolling)
    let resumed = capture.resume(at: at(5000))
    #expect(resumed.contains(.startPolling))
    #expect(!resumed.contains { if case .armRetry = $0 { true } else { false } }, "\(resumed)")
    #expect(capture.state == .attached(untriggered, .polling(.none)))

    // The same device with a trigger is tried again: the difference is the trigger alone.
    var triggered = plan(.auto)
    var device = untriggered
    device.hasTrigger = true
    _ = triggered.attached(device, at: at(0))
    _ = triggered.bufferOpened(at: at(0))
    #expect(triggered.probeExpired(at: at(1000)).last == .armRetry(.seconds(2)))
    #expect(triggered.polled(gravity: Vector3(0, -1, 0), changePending: false, at: at(1200)).isEmpty)
    #expect(
      triggered.polled(gravity: Vector3(1, 0, 0), changePending: true, at: at(1400)).last == .openBuffer)
  }

  @Test("While the device rests, the retry timer tries nothing; the first poll that sees it move does")
  func restingDeviceWaitsForMovement() {
    var capture = silentBuffer()
    #expect(
      capture.retryDue(at: at(3000), deviceRests: true) == [
        .log(.debug("the device rests: the buffer is tried again when it moves"))
      ])
    #expect(capture.polled(gravity: Vector3(0, -1, 0), changePending: false, at: at(4000)).isEmpty)
    #expect(capture.polled(gravity: Vector3(1, 0, 0), changePending: false, at: at(5000)).last == .openBuffer)
  }

  @Test("A buffer tried again that delivers ends the polling")
  func retriedBufferTakesOver() {
    var capture = silentBuffer()
    _ = capture.retryDue(at: at(3000))
    _ = capture.bufferOpened(at: at(3010))
    #expect(
      capture.scansArrived(at: at(3260)) == [
        .cancelProbe, .stopPolling, .announce(.bufferTakesOver(after: .milliseconds(250))), .setHubReporting,
      ])
    #expect(capture.state == .attached(both, .buffer))
  }

  @Test("A buffer on trial that fails while polling goes on ends its trial, not the sensor")
  func bufferTrialFailsWhilePolling() {
    var capture = silentBuffer()
    _ = capture.retryDue(at: at(3000))
    _ = capture.bufferOpened(at: at(3000))
    #expect(
      capture.bufferBroke(TestFault("reading the buffer failed: Input/output error"), at: at(3100)) == [
        .cancelProbe, .closeBuffer,
        .log(
          .debug(
            "trying the buffer again: reading the buffer failed: Input/output error; polling goes on, next try in 4 s"
          )),
        .armRetry(.seconds(4)),
      ])
    #expect(capture.state == .attached(both, .polling(.waiting)))
    // A buffer that will not open again is a failed try too.
    _ = capture.retryDue(at: at(8000))
    #expect(
      capture.bufferFailed(TestFault("cannot open the buffer: Device or resource busy"), at: at(8000)) == [
        .log(
          .debug(
            "trying the buffer again: cannot open the buffer: Device or resource busy; polling goes on, next try in 8 s"
          )),
        .armRetry(.seconds(8)),
      ])
  }

  @Test("A buffer that breaks while it is the capture loses the sensor")
  func bufferBreaksAlone() {
    var capture = plan(.auto)
    _ = capture.attached(both, at: at(0))
    _ = capture.bufferOpened(at: at(0))
    _ = capture.scansArrived(at: at(10))
    #expect(
      capture.bufferBroke(TestFault("the buffer's device hung up"), at: at(500))
        == lost("the buffer's device hung up"))
    #expect(capture.state == .looking(paused: false, saidAbsent: nil))
    // Also on trial, before polling ever started.
    _ = capture.attached(both, at: at(1500))
    _ = capture.bufferOpened(at: at(1500))
    #expect(
      capture.bufferBroke(TestFault("reading the buffer failed: No such device"), at: at(1600)).last
        == .lookAgain(after: .seconds(1)))
  }

  @Test(
    "Polling that sees the device move tries the silent buffer at once, then again 2 s later at the earliest")
  func movementTriggersRetry() {
    var capture = silentBuffer()
    let still = Vector3(0, -1, 0)
    let moved = Vector3(0.3, -0.95, 0)
    let tryNow: [CapturePlan.Action] = [
      .log(.debug("the device moved: trying the buffer again now rather than at the end of its wait")),
      .cancelRetry, .openBuffer,
    ]
    #expect(capture.polled(gravity: still, changePending: false, at: at(1000)).isEmpty)
    #expect(capture.polled(gravity: still, changePending: false, at: at(1200)).isEmpty)
    #expect(capture.polled(gravity: moved, changePending: false, at: at(1400)) == tryNow)
    _ = capture.bufferFailed(TestFault("cannot open the buffer: Device or resource busy"), at: at(1400))
    // Moving again within the 2 s is not a new try.
    #expect(capture.polled(gravity: still, changePending: false, at: at(1600)).isEmpty)
    // A change pending is movement too, once the 2 s are over.
    #expect(capture.polled(gravity: still, changePending: true, at: at(3200)).isEmpty)
    #expect(capture.polled(gravity: still, changePending: true, at: at(3400)) == tryNow)
    // While the buffer is on trial, polling tries nothing more.
    _ = capture.bufferOpened(at: at(3400))
    #expect(capture.polled(gravity: moved, changePending: true, at: at(3600)).isEmpty)
  }

  @Test("The retry timer's try counts for the spacing of tries that movement starts")
  func timerTryCountsForSpacing() {
    var capture = silentBuffer()
    _ = capture.retryDue(at: at(3000))
    _ = capture.bufferFailed(TestFault("cannot open the buffer: Device or resource busy"), at: at(3000))
    _ = capture.polled(gravity: Vector3(0, -1, 0), changePending: false, at: at(3200))
    #expect(capture.polled(gravity: Vector3(1, 0, 0), changePending: false, at: at(3400)).isEmpty)
    #expect(
      capture.polled(gravity: Vector3(0, -1, 0), changePending: false, at: at(4000)).last == .openBuffer)
  }

  @Test("--mode poll polls at once and says why; no buffer is ever opened")
  func modePoll() {
    var capture = plan(.poll)
    #expect(
      capture.attached(both, at: at(0)) == [
        .raiseFrequencies, .startPolling, .announce(.polling(reason: "--mode poll")), .online(true),
      ])
    #expect(capture.state == .attached(both, .polling(.none)))
    #expect(capture.polled(gravity: Vector3(1, 0, 0), changePending: true, at: at(200)).isEmpty)
    #expect(capture.polled(gravity: Vector3(0, 1, 0), changePending: true, at: at(5000)).isEmpty)
    #expect(capture.retryDue(at: at(9000)).isEmpty)
  }

  @Test("--mode buffer reads the buffer without a trial, and polls when it cannot be opened")
  func modeBuffer() {
    var capture = plan(.buffer)
    #expect(capture.attached(both, at: at(0)) == [.raiseFrequencies, .openBuffer])
    #expect(
      capture.bufferOpened(at: at(0)) == [
        .announce(.bufferGiven("--mode buffer")), .setHubReporting, .online(true),
      ])
    #expect(capture.state == .attached(both, .buffer))
    var failing = plan(.buffer)
    _ = failing.attached(both, at: at(0))
    #expect(
      failing.bufferFailed(TestFault("cannot open the buffer: Device or resource busy"), at: at(0)) == [
        .startPolling,
        .announce(
          .polling(reason: "buffered capture is unusable: cannot open the buffer: Device or resource busy")),
        .online(true),
      ])
    // No retry of a buffer that could not be opened.
    #expect(failing.state == .attached(both, .polling(.none)))
  }

  @Test(
    "A device without scan elements is polled in auto and buffer mode",
    arguments: [CapturePlan.Mode.auto, .buffer])
  func noScanElements(mode: CapturePlan.Mode) {
    var capture = plan(mode)
    #expect(
      capture.attached(pollOnly, at: at(0)) == [
        .raiseFrequencies, .startPolling,
        .announce(.polling(reason: "the device has no scan elements for accel x, y and z")), .online(true),
      ])
  }

  @Test("A device without raw attributes is read through its buffer without a trial")
  func noRawAttributes() {
    var capture = plan(.auto)
    #expect(capture.attached(bufferOnly, at: at(0)) == [.raiseFrequencies, .openBuffer])
    #expect(
      capture.bufferOpened(at: at(0)) == [
        .announce(.bufferGiven("the device has no raw attributes to poll")), .setHubReporting, .online(true),
      ])
  }

  @Test("A device whose buffer will not open and that cannot be polled is looked for again, further apart")
  func unusableSensor() {
    var capture = plan(.auto)
    _ = capture.attached(bufferOnly, at: at(0))
    let failure =
      "iio:device0 (accel_3d): buffered capture is unusable (cannot open the buffer: Device or resource busy), "
      + "and the device has no raw attributes to poll"
    #expect(
      capture.bufferFailed(TestFault("cannot open the buffer: Device or resource busy"), at: at(0)) == [
        .detach(restoringFrequencies: true), .unusable(failure),
      ])
    #expect(
      capture.lookFailed(TestFault(failure, backOff: .unusable)) == [
        .log(
          .warning(
            "\(failure); serving 'sensor offline' and looking again in 2 s, then further apart, up to a minute"
          )),
        .lookAgain(after: .seconds(2)),
      ])
    _ = capture.attached(bufferOnly, at: at(2000))
    _ = capture.bufferFailed(TestFault("cannot open the buffer: Device or resource busy"), at: at(2000))
    // Each attempt found the sensor, so each failure is said; the wait doubles.
    #expect(
      capture.lookFailed(TestFault(failure, backOff: .unusable)) == [
        .log(
          .warning(
            "\(failure); serving 'sensor offline' and looking again in 4 s, then further apart, up to a minute"
          )),
        .lookAgain(after: .seconds(4)),
      ])
    // A sensor that reads starts the waits afresh.
    _ = capture.attached(both, at: at(6000))
    _ = capture.bufferOpened(at: at(6000))
    _ = capture.bufferBroke(TestFault("the buffer's device hung up"), at: at(6100))
    _ = capture.attached(bufferOnly, at: at(7100))
    _ = capture.bufferFailed(TestFault("cannot open the buffer: Device or resource busy"), at: at(7100))
    #expect(capture.lookFailed(TestFault(failure, backOff: .unusable)).last == .lookAgain(after: .seconds(2)))
  }
}
