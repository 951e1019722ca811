import OrientCore
import OrientSystem

/// The poll timer of a polled sensor: every interval, and every 50 ms (`PollPace`) while the
/// detector has a change pending, until its settle time decides either way.
///
/// While nothing is pending the timer repeats at the interval on its own, so a still device
/// costs one wake-up per interval and no more. After each poll the driver says what is
/// pending; only then is the timer armed again.
final class PollPacer {
  private let loop: EventLoop
  private let clock: SampleClock
  private let pace: PollPace
  private let poll: () -> Void
  private var timer: LoopTimer?
  /// Whether the timer runs at the pending period now.
  private var hurried = false

  /// A pacer that calls `poll` on `loop` every `interval`; `clock` gives sample times.
  init(loop: EventLoop, clock: SampleClock, interval: Duration, poll: @escaping () -> Void) {
    self.loop = loop
    self.clock = clock
    pace = PollPace(interval: interval)
    self.poll = poll
  }

  /// Polls at once, then at the interval.
  func start() {
    let timer = LoopTimer(loop: loop) { [unowned self] _ in self.poll() }
    timer.schedule(after: .zero, repeating: pace.interval)
    self.timer = timer
    hurried = false
  }

  /// Stops polling: no timer stays armed.
  func stop() {
    timer = nil
    hurried = false
  }

  /// After a poll: polls faster while a change is pending (`settlesAt`), and at the interval
  /// again once nothing is.
  func paced(settlesAt: SampleTime?) {
    guard let timer else { return }
    // Nothing pending and not hurried, as after most polls: the repeating timer goes on as it
    // is, and the clock need not be read.
    if settlesAt == nil, !hurried { return }
    switch pace.next(now: clock.now, settlesAt: settlesAt) {
    case .interval:
      guard hurried else { return }
      hurried = false
      timer.schedule(after: pace.interval, repeating: pace.interval)
      Log.debug("nothing pending: polling every \(pace.interval.wholeMilliseconds) ms again")
    case .after(let wait):
      if !hurried {
        Log.debug(
          "a change is pending: polling every \(pace.pendingPeriod.wholeMilliseconds) ms until "
            + "\(settlesAt?.secondsText ?? "?"), when its settle time decides")
      }
      hurried = true
      // Rounded up to the microsecond the sample times count in: the poll must not come
      // before the settle time and find it a microsecond short.
      timer.schedule(after: wait + .nanoseconds(999))
    }
  }
}
