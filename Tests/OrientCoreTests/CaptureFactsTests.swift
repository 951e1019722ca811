import Testing

@testable import OrientCore

private let both = CapturePlan.Device(summary: "iio:device0 (accel_3d)", canPoll: true, canBuffer: true)
private let bufferOnly = CapturePlan.Device(
  summary: "iio:device0 (accel_3d)", canPoll: false, canBuffer: true)

private func settings(_ mode: CapturePlan.Mode, endsIfAbsent: Bool = false) -> CapturePlan.Settings {
  CapturePlan.Settings(
    mode: mode, interval: .milliseconds(200), whileAbsent: "serving 'sensor offline'",
    endsIfAbsent: endsIfAbsent)
}

private func at(_ milliseconds: Int64) -> SampleTime { SampleTime(sinceOrigin: .milliseconds(milliseconds)) }

private let absent = TestFault("no usable accelerometer in IIO context local:")

extension CapturePlan.Action {
  fileprivate var onlineValue: Bool? {
    if case .online(let value) = self { return value }
    return nil
  }
}

/// What the plan knows that its driver used to keep beside it: whether the sensor is online,
/// whether a failed first look ends the run, and whether a sample comes from polling.
@Suite("The capture plan's own facts: online, the end of a run without a sensor, polling")
struct CaptureFactsTests {
  @Test("With endsIfAbsent a failed first look ends the run and asks for nothing more")
  func firstLookEnds() {
    var capture = CapturePlan(settings: settings(.auto, endsIfAbsent: true))
    #expect(capture.lookFailed(absent).isEmpty)
    #expect(capture.hasEnded)
    #expect(capture.lookFailed(absent).isEmpty, "an ended plan looks no more")

    var patient = CapturePlan(settings: settings(.auto))
    #expect(patient.lookFailed(absent).last == .lookAgain(after: .seconds(1)))
    #expect(!patient.hasEnded)
  }

  @Test("A buffer-only sensor whose buffer fails at the first look ends the run too")
  func unusableFirstSensorEnds() {
    var capture = CapturePlan(settings: settings(.auto, endsIfAbsent: true))
    _ = capture.attached(bufferOnly, at: at(0))
    let actions = capture.bufferFailed(
      TestFault("cannot open the buffer: Device or resource busy"), at: at(0))
    guard case .unusable(let why) = actions.last else {
      Issue.record("expected the sensor to be unusable, got \(actions)")
      return
    }
    #expect(capture.lookFailed(TestFault(why, backOff: .unusable)).isEmpty)
    #expect(capture.hasEnded)
  }

  @Test("Only the first look may end the run: a sensor lost later is looked for again")
  func laterLossDoesNotEnd() {
    var capture = CapturePlan(settings: settings(.poll, endsIfAbsent: true))
    _ = capture.attached(both, at: at(0))
    _ = capture.readFailed(TestFault("in_accel_x_raw is missing", gone: true))
    #expect(capture.lookFailed(absent).last == .lookAgain(after: .seconds(1)))
    #expect(!capture.hasEnded)
  }

  @Test("Online and offline are each said once, as the sensor is found and lost")
  func onlineOncePerChange() {
    var capture = CapturePlan(settings: settings(.poll))
    #expect(capture.attached(both, at: at(0)).compactMap(\.onlineValue) == [true])
    #expect(capture.isOnline)
    #expect(
      capture.readFailed(TestFault("in_accel_x_raw is missing", gone: true)).compactMap(\.onlineValue) == [
        false
      ])
    #expect(capture.lookFailed(absent).compactMap(\.onlineValue).isEmpty, "offline was said already")
    #expect(capture.attached(both, at: at(2000)).compactMap(\.onlineValue) == [true])
  }

  @Test("A restart with new settings keeps a sensor found again online, without saying so twice")
  func restartKeepsOnline() {
    var capture = CapturePlan(settings: settings(.auto))
    _ = capture.attached(both, at: at(0))
    _ = capture.bufferOpened(at: at(0))
    #expect(capture.restart(with: settings(.poll)) == [.cancelLook, .detach(restoringFrequencies: true)])
    #expect(capture.settings.mode == .poll)
    #expect(capture.isOnline)
    let again = capture.attached(both, at: at(100))
    #expect(again.compactMap(\.onlineValue).isEmpty)
    #expect(again.contains(.startPolling))
  }

  @Test("A restart whose next look finds nothing says the sensor went offline")
  func restartThenAbsent() {
    var capture = CapturePlan(settings: settings(.auto))
    _ = capture.attached(bufferOnly, at: at(0))
    _ = capture.bufferOpened(at: at(0))
    _ = capture.restart(with: settings(.poll))
    let actions = capture.lookFailed(
      TestFault("iio:device0 (accel_3d) has no raw attributes; its buffer is left to another"))
    #expect(actions.first == .online(false))
    #expect(!capture.isOnline)
  }

  @Test("A paused plan stays paused across a restart")
  func restartKeepsPause() {
    var capture = CapturePlan(settings: settings(.auto))
    _ = capture.attached(both, at: at(0))
    _ = capture.bufferOpened(at: at(0))
    _ = capture.pause(at: at(10))
    _ = capture.restart(with: settings(.poll))
    #expect(capture.isPaused)
    #expect(
      capture.attached(both, at: at(20)).contains(.startPolling) == false, "found while paused: not read")
  }

  @Test("isPolling is true exactly while polling reads the sensor, a buffer retry included")
  func pollingFollowsState() {
    var capture = CapturePlan(settings: settings(.auto))
    #expect(!capture.isPolling)
    _ = capture.attached(both, at: at(0))
    #expect(!capture.isPolling, "the buffer is being opened")
    _ = capture.bufferOpened(at: at(0))
    #expect(!capture.isPolling, "the buffer is on trial")
    _ = capture.probeExpired(at: at(1000))
    #expect(capture.isPolling)
    _ = capture.retryDue(at: at(3000))
    #expect(capture.isPolling, "polling goes on while the buffer is opened again")
    _ = capture.bufferOpened(at: at(3000))
    #expect(capture.isPolling, "and while it is on trial")
    _ = capture.scansArrived(at: at(3100))
    #expect(!capture.isPolling, "the buffer took over")
    _ = capture.pause(at: at(4000))
    #expect(!capture.isPolling)
  }
}
