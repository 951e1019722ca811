/// How often to poll a sensor, from what its samples show: rarely while the device rests,
/// at the interval while it is handled, and fast while it moves or a change is pending.
///
/// A polled sensor is seen to move only at a poll, so the pace at rest bounds how late a
/// turn's start is noticed, and every poll is a wake-up. The pace follows the device:
/// - **resting** (it has not moved for `handledTime`): every `restingInterval`;
/// - **handled** (it moved within `handledTime`, or sampling just started): every `interval`.
///   Turns come in runs (a tablet turned is often turned back), and a device in a hand moves;
///   this is where answering soon matters;
/// - **moving** (a sample moved, `MotionWatch`, within the last `movingWindow`): every
///   `movingPeriod`, so a turn is followed while it happens and the classifier sees the
///   device come to rest as soon as it does. At most `burstLimit` at a time without a change
///   pending: a device carried about moves all the time, and following it at that pace would
///   cost 50 wake-ups a second;
/// - **a change pending**: every `movingPeriod`, and exactly at the time the classifier says it
///   settles, so that the decision (either way) is made as soon as it can be.
///
/// Pure: times are the samples' own.
package struct PollPace: Equatable, Sendable {
  /// The fastest period: while moving or while a change is pending, unless the interval is
  /// shorter. 20 ms is the 50 Hz many accelerometers sample at.
  package static let movingPeriodLimit = Duration.milliseconds(20)
  /// How long after it last moved the device counts as handled.
  package static let handledTime = Duration.seconds(10)
  /// How long after a sample moved the device counts as moving: three fast periods, so that a
  /// slow turn, whose samples leave the anchor every other poll, is followed all along.
  package static let movingWindow = Duration.milliseconds(60)
  /// The longest run of fast polls while nothing is pending.
  package static let burstLimit = Duration.seconds(1)

  /// The period while the device is handled (the `interval` setting).
  package let interval: Duration
  /// The period while the device rests: never shorter than `interval`.
  package private(set) var restingInterval: Duration

  var motion = MotionWatch()
  /// When the device last moved, or sampling started.
  var lastActivity: SampleTime?
  /// When the current run of fast polls began, nil while the device is not moving.
  var burstStart: SampleTime?

  /// A pace polling every `interval` (at least a millisecond) while the device is handled and
  /// every `restingInterval` while it rests.
  package init(interval: Duration, restingInterval: Duration) {
    self.interval = max(interval, .milliseconds(1))
    self.restingInterval = max(restingInterval, self.interval)
  }

  /// Polls every `resting` (never shorter than the interval) from now on while the device
  /// rests: a hinge pairs two sensors' readings, and needs both current at every interval.
  package mutating func rest(every resting: Duration) {
    restingInterval = max(resting, interval)
  }

  /// The period while moving or while a change is pending: 20 ms, never slower than the
  /// interval.
  package var movingPeriod: Duration { min(Self.movingPeriodLimit, interval) }

  /// Whether the device rests at `time`: it has not moved for `handledTime`.
  package func rests(at time: SampleTime) -> Bool {
    lastActivity.map { time - $0 >= Self.handledTime } ?? false
  }

  /// What to do next.
  package enum Next: Equatable, Sendable {
    /// Poll every this long from now on.
    case every(Duration)
    /// Poll once after this long (then decide again).
    case after(Duration)
  }

  /// Sampling starts (or starts again after a pause) at `time`: nothing is known of the
  /// device's motion, and it counts as handled (something just asked for samples).
  package mutating func start(at time: SampleTime) {
    motion.reset()
    lastActivity = time
    burstStart = nil
  }

  /// After a poll at `time` that read `gravity` (nil when it read nothing usable), given when
  /// the pending change settles (`settlesAt`, nil when nothing is pending): when to poll next.
  /// Never a negative wait.
  package mutating func next(after gravity: Vector3?, at time: SampleTime, settlesAt: SampleTime?) -> Next {
    if let gravity, motion.add(gravity, at: time) { lastActivity = time }
    let moving = motion.movedAt.map { time - $0 < Self.movingWindow } ?? false
    if moving {
      if burstStart == nil { burstStart = time }
    } else {
      burstStart = nil
    }
    if let settlesAt {
      return .after(max(.zero, min(movingPeriod, settlesAt - time)))
    }
    if let burstStart, time - burstStart < Self.burstLimit {
      return .every(movingPeriod)
    }
    if let lastActivity, time - lastActivity < Self.handledTime {
      return .every(interval)
    }
    return .every(restingInterval)
  }
}
