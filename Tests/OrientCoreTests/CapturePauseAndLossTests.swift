import Testing

@testable import OrientCore

private let both = CapturePlan.Device(summary: "iio:device0 (accel_3d)", canPoll: true, canBuffer: true)
private let bufferOnly = CapturePlan.Device(
  summary: "iio:device0 (accel_3d)", canPoll: false, canBuffer: true)
private let remote = CapturePlan.Device(
  summary: "iio:device0 (accel_3d)", canPoll: true, canBuffer: false, isLocal: false)

private func plan(_ mode: CapturePlan.Mode, base: Bool = false) -> CapturePlan {
  CapturePlan(
    settings: CapturePlan.Settings(
      mode: mode, interval: .milliseconds(200), offlinePrefix: base ? "the base accelerometer " : "",
      whileAbsent: base ? "no hinge angle meanwhile" : "serving 'sensor offline'"))
}

private func at(_ milliseconds: Int64) -> SampleTime { SampleTime(sinceOrigin: .milliseconds(milliseconds)) }

private let stopped: [CapturePlan.Action] = [
  .restoreHubReporting, .restoreFrequencies, .log(.debug("nothing needs samples: sampling stopped")),
]
private let resumed = CapturePlan.Action.log(.debug("sampling resumed"))

/// A plan in auto mode capturing `device` as `state` says, reached through its inputs.
private func capturing(_ device: CapturePlan.Device, _ how: String) -> CapturePlan {
  var capture = plan(.auto)
  _ = capture.attached(device, at: at(0))
  switch how {
  case "buffer":
    _ = capture.bufferOpened(at: at(0))
    _ = capture.scansArrived(at: at(10))
  case "trial":
    _ = capture.bufferOpened(at: at(0))
  case "waiting":
    _ = capture.bufferOpened(at: at(0))
    _ = capture.probeExpired(at: at(1000))
  case "retrial":
    _ = capture.bufferOpened(at: at(0))
    _ = capture.probeExpired(at: at(1000))
    _ = capture.retryDue(at: at(3000))
    _ = capture.bufferOpened(at: at(3000))
  default:
    break
  }
  return capture
}

@Suite("The capture plan: pausing, resuming, losing and looking for the sensor")
struct CapturePauseAndLossTests {
  @Test("Pausing the buffer closes it and puts the rates back; resuming reads once and reopens it")
  func pauseBuffer() {
    var capture = capturing(both, "buffer")
    #expect(capture.pause(at: at(500)) == [.closeBuffer] + stopped)
    #expect(capture.state == .attached(both, .paused(.buffer)))
    #expect(capture.pause(at: at(600)).isEmpty)
    #expect(capture.resume(at: at(900)) == [resumed, .raiseFrequencies, .readOnce, .openBuffer])
    // The buffer captures again: the hub is asked to report only moves again.
    #expect(capture.bufferOpened(at: at(900)) == [.setHubReporting])
    #expect(capture.state == .attached(both, .buffer))
    #expect(capture.resume(at: at(1000)).isEmpty)
  }

  @Test("A buffer paused on trial gets its second afresh after the pause")
  func pauseBufferOnTrial() {
    var capture = capturing(both, "trial")
    #expect(capture.pause(at: at(500)) == [.cancelProbe, .closeBuffer] + stopped)
    _ = capture.resume(at: at(4000))
    #expect(capture.bufferOpened(at: at(4000)) == [.armProbe(.seconds(1))])
    #expect(capture.state == .attached(both, .bufferOnTrial(since: at(4000))))
  }

  @Test("A device without raw attributes is not read once on resuming")
  func resumeWithoutRawAttributes() {
    var capture = capturing(bufferOnly, "trial")
    _ = capture.pause(at: at(500))
    #expect(capture.resume(at: at(900)) == [resumed, .raiseFrequencies, .openBuffer])
  }

  @Test("Polling with a silent buffer stops its retry when paused, and tries it 2 s after resuming")
  func pauseWhilePollingWithRetry() {
    var capture = capturing(both, "waiting")
    // A second silence makes the next wait 4 s; the pause starts it over.
    _ = capture.retryDue(at: at(3000))
    _ = capture.bufferOpened(at: at(3000))
    _ = capture.probeExpired(at: at(4000))
    #expect(capture.pause(at: at(4500)) == [.stopPolling, .cancelRetry] + stopped)
    #expect(
      capture.resume(at: at(9000)) == [resumed, .raiseFrequencies, .startPolling, .armRetry(.seconds(2))])
    #expect(capture.state == .attached(both, .polling(.waiting)))
  }

  @Test("A buffer retried while polling is closed by a pause, and polling goes on after it")
  func pauseDuringRetrial() {
    var capture = capturing(both, "retrial")
    #expect(capture.pause(at: at(3500)) == [.stopPolling, .cancelProbe, .closeBuffer] + stopped)
    #expect(capture.resume(at: at(5000)).contains(.armRetry(.seconds(2))))
  }

  @Test("Polling that never retries a buffer resumes polling alone")
  func pausePollingWithoutRetry() {
    var capture = plan(.poll)
    _ = capture.attached(both, at: at(0))
    #expect(capture.pause(at: at(500)) == [.stopPolling] + stopped)
    #expect(capture.resume(at: at(900)) == [resumed, .raiseFrequencies, .startPolling])
    #expect(capture.state == .attached(both, .polling(.none)))
  }

  @Test(
    "A buffer that will not reopen after a pause gives way to polling, or loses a sensor that cannot be polled"
  )
  func reopenFails() {
    var polled = capturing(both, "buffer")
    _ = polled.pause(at: at(500))
    _ = polled.resume(at: at(900))
    #expect(
      polled.bufferFailed(TestFault("cannot open the buffer: Device or resource busy"), at: at(900)) == [
        .startPolling,
        .announce(
          .polling(
            reason:
              "reopening the buffer after a pause failed: cannot open the buffer: Device or resource busy")),
      ])
    var lost = capturing(bufferOnly, "buffer")
    _ = lost.pause(at: at(500))
    _ = lost.resume(at: at(900))
    #expect(
      lost.bufferFailed(TestFault("cannot open the buffer: Device or resource busy"), at: at(900)) == [
        .log(
          .warning(
            "iio:device0 (accel_3d) went offline: reopening the buffer failed: cannot open the buffer: Device or resource busy"
          )),
        .detach(restoringFrequencies: false), .online(false), .lookAgain(after: .seconds(1)),
      ])
  }

  @Test("A sensor found while nothing needs samples comes online unread, and capture starts on resuming")
  func foundWhilePaused() {
    var capture = plan(.auto)
    #expect(capture.pause(at: at(0)).isEmpty)
    #expect(capture.isPaused)
    #expect(capture.attached(both, at: at(100)) == [.online(true)])
    #expect(capture.state == .attached(both, .paused(.start)))
    #expect(capture.resume(at: at(900)) == [resumed, .raiseFrequencies, .openBuffer])
    // Already online: the start does not say so again.
    #expect(capture.bufferOpened(at: at(900)) == [.announce(.bufferTrying), .armProbe(.seconds(1))])
  }

  @Test("A sensor that cannot be read when sampling resumes is lost, not looked for further apart")
  func unreadableOnResume() {
    var capture = plan(.auto)
    _ = capture.pause(at: at(0))
    _ = capture.attached(bufferOnly, at: at(100))
    _ = capture.resume(at: at(900))
    let actions = capture.bufferFailed(
      TestFault("cannot open the buffer: Device or resource busy"), at: at(900))
    #expect(actions.first?.isWarning == true)
    #expect(actions.last == .lookAgain(after: .seconds(1)))
  }

  @Test("Resuming while no sensor is found only lets the next look start capture")
  func resumeWhileLooking() {
    var capture = plan(.auto)
    _ = capture.pause(at: at(0))
    #expect(capture.resume(at: at(100)).isEmpty)
    #expect(!capture.isPaused)
    #expect(capture.attached(both, at: at(200)) == [.raiseFrequencies, .openBuffer])
  }

  @Test(
    "A failed poll is skipped with a rate-limited warning on a local device, and loses a remote or removed one"
  )
  func pollFailures() {
    var local = plan(.poll)
    _ = local.attached(both, at: at(0))
    #expect(
      local.readFailed(TestFault("reading in_accel_x_raw failed: Device or resource busy", gone: false)) == [
        .warnOfSkippedReading(
          "iio:device0 (accel_3d): reading in_accel_x_raw failed: Device or resource busy; sample skipped")
      ])
    #expect(
      local.readFailed(TestFault("reading in_accel_x_raw failed: No such device", gone: true)).first
        == .log(
          .warning("iio:device0 (accel_3d) went offline: reading in_accel_x_raw failed: No such device")))
    var far = plan(.poll)
    _ = far.attached(remote, at: at(0))
    #expect(
      far.readFailed(TestFault("reading in_accel_y_raw failed: Timer expired", gone: false)).last
        == .lookAgain(after: .seconds(1)))
  }

  @Test("While a buffer is tried, a failed poll is only a debug line unless the device is gone")
  func pollFailuresDuringTrial() {
    var capture = capturing(both, "retrial")
    #expect(
      capture.readFailed(TestFault("reading in_accel_z_raw failed: Device or resource busy", gone: false))
        == [
          .log(
            .debug(
              "iio:device0 (accel_3d): reading in_accel_z_raw failed: Device or resource busy while the buffer is tried; sample skipped"
            ))
        ])
    #expect(
      capture.readFailed(TestFault("reading in_accel_z_raw failed: No such device", gone: true)).last
        == .lookAgain(after: .seconds(1)))
  }

  @Test("A missing sensor is said once per reason and looked for every second")
  func missingSensor() {
    var capture = plan(.auto)
    let none = "no usable accelerometer in IIO context local:"
    #expect(
      capture.lookFailed(TestFault(none, backOff: .none)) == [
        .log(.warning("\(none); serving 'sensor offline' and looking again every second")),
        .lookAgain(after: .seconds(1)),
      ])
    #expect(capture.lookFailed(TestFault(none, backOff: .none)) == [.lookAgain(after: .seconds(1))])
    #expect(capture.lookFailed(TestFault("another reason", backOff: .none)).count == 2)
  }

  @Test("A refused context is looked for further apart each time, and from 2 s again once a sensor was found")
  func refusedContext() {
    var capture = plan(.poll)
    let refused = "refusing the IIO context ip:127.0.0.1: it has 300 devices, more than the limit of 256"
    #expect(
      capture.lookFailed(TestFault(refused, backOff: .refused)) == [
        .log(
          .warning(
            "\(refused); serving 'sensor offline' and looking again in 2 s, then further apart, up to a minute"
          )),
        .lookAgain(after: .seconds(2)),
      ])
    #expect(capture.lookFailed(TestFault(refused, backOff: .refused)) == [.lookAgain(after: .seconds(4))])
    #expect(capture.lookFailed(TestFault(refused, backOff: .refused)) == [.lookAgain(after: .seconds(8))])
    _ = capture.attached(both, at: at(0))
    _ = capture.readFailed(TestFault("in_accel_x_raw is gone", gone: true))
    #expect(capture.lookFailed(TestFault(refused, backOff: .refused)).last == .lookAgain(after: .seconds(2)))
  }

  @Test("The base sensor's plan words its absence and loss as the base's")
  func baseWording() {
    var capture = plan(.auto, base: true)
    #expect(
      capture.lookFailed(TestFault("no base accelerometer in IIO context local:", backOff: .none)).first
        == .log(
          .warning(
            "no base accelerometer in IIO context local:; no hinge angle meanwhile and looking again every second"
          )))
    _ = capture.attached(both, at: at(0))
    _ = capture.bufferOpened(at: at(0))
    #expect(
      capture.readFailed(TestFault("in_accel_x_raw is gone", gone: true)).first
        == .log(
          .warning("the base accelerometer iio:device0 (accel_3d) went offline: in_accel_x_raw is gone")))
  }

  @Test("Stopping stops looking and lets the sensor go with its rates put back")
  func stop() {
    var looking = plan(.auto)
    #expect(looking.stop() == [.cancelLook])
    var capture = capturing(both, "buffer")
    #expect(capture.stop() == [.cancelLook, .detach(restoringFrequencies: true)])
    #expect(capture.state == .looking(paused: false, saidAbsent: nil))
  }

  @Test("Inputs that do not fit the state change nothing")
  func inputsOutOfPlace() {
    var capture = plan(.auto)
    #expect(capture.bufferOpened(at: at(0)).isEmpty)
    #expect(capture.scansArrived(at: at(0)).isEmpty)
    #expect(capture.probeExpired(at: at(0)).isEmpty)
    #expect(capture.retryDue(at: at(0)).isEmpty)
    #expect(capture.readFailed(TestFault("gone", gone: true)).isEmpty)
    #expect(capture.state == .looking(paused: false, saidAbsent: nil))
  }
}

extension CapturePlan.Action {
  fileprivate var isWarning: Bool {
    if case .log(let note) = self { return note.level == .warning }
    return false
  }
}
