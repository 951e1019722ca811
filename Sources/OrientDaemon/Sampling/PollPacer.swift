import OrientCore
import OrientSystem

/// The poll timer of a polled sensor, at the pace `PollPace` sets from what each poll read:
/// rarely while the device rests, at the interval while it is handled, fast while it moves or
/// a change is pending.
///
/// A steady pace is one repeating timer, armed again only when the pace changes, so a device
/// at rest costs one wake-up per resting interval and no more. After each poll the driver
/// says what it read and what is pending.
final class PollPacer {
  private let loop: EventLoop
  private let clock: SampleClock
  private var pace: PollPace
  private let poll: () -> Void
  private var timer: LoopTimer?
  /// The period the timer repeats at, nil while it is armed once (`PollPace.Next.after`).
  private var period: Duration?

  /// A pacer that calls `poll` on `loop` every `interval` while the device is handled and
  /// every `restingInterval` while it rests; `clock` gives sample times.
  init(
    loop: EventLoop, clock: SampleClock, interval: Duration, restingInterval: Duration,
    poll: @escaping () -> Void
  ) {
    self.loop = loop
    self.clock = clock
    pace = PollPace(interval: interval, restingInterval: restingInterval)
    self.poll = poll
  }

  /// Polls at once, then at the interval until the samples say otherwise.
  func start() {
    let timer = LoopTimer(loop: loop) { [unowned self] _ in self.poll() }
    pace.start(at: clock.now)
    timer.schedule(after: .zero, repeating: pace.interval)
    self.timer = timer
    period = pace.interval
  }

  /// Whether the device rests now (it has not moved for `PollPace.handledTime`).
  var deviceRests: Bool { timer != nil && pace.rests(at: clock.now) }

  /// Polls every `resting` while the device rests, from the next poll on.
  func rest(every resting: Duration) { pace.rest(every: resting) }

  /// Stops polling: no timer stays armed.
  func stop() {
    timer = nil
    period = nil
  }

  /// After a poll at `time` that read `gravity` (nil when it read nothing usable): polls at
  /// the pace the reading and the pending change (`settlesAt`) call for.
  func paced(after gravity: Vector3?, at time: SampleTime, settlesAt: SampleTime?) {
    guard let timer else { return }
    switch pace.next(after: gravity, at: time, settlesAt: settlesAt) {
    case .every(let wanted):
      guard wanted != period else { return }
      if Log.isVerbose {
        Log.debug("polling every \(wanted.wholeMilliseconds) ms (\(describe(wanted)))")
      }
      period = wanted
      timer.schedule(after: wanted, repeating: wanted)
    case .after(let wait):
      if period != nil, Log.isVerbose {
        Log.debug(
          "a change is pending: polling every \(pace.movingPeriod.wholeMilliseconds) ms until "
            + "\(settlesAt?.secondsText ?? "?"), when it settles")
      }
      period = nil
      // Rounded up to the microsecond the sample times count in: the poll must not come
      // before the settle time and find it a microsecond short.
      timer.schedule(after: wait + .nanoseconds(999))
    }
  }

  private func describe(_ wanted: Duration) -> String {
    if wanted == pace.movingPeriod, wanted != pace.interval { return "the device moves" }
    if wanted == pace.restingInterval, wanted != pace.interval { return "the device rests" }
    return "the device is handled"
  }
}
