/// How often to poll a sensor: at the interval, and faster while a change is pending, so the
/// settle time decides (either way) as soon as it can rather than at the next interval.
///
/// A change proposed by one poll needs a proposal at least `settle` later. At the interval,
/// a settle time that is not a whole number of intervals waits for the next poll (300 ms at
/// a 200 ms interval took 400); at 50 ms the last poll falls on the settle time itself. And
/// a change is judged by more samples: the default 200 ms settle is 5 agreeing polls rather
/// than 2, so a passing wobble is dropped within 50 ms instead of 200. The faster polling
/// lasts only while something is pending.
///
/// Pure: times are the samples' own.
package struct PollPace: Equatable, Sendable {
  /// The poll period while a change is pending, unless the interval is shorter.
  static let pendingPeriodLimit = Duration.milliseconds(50)

  /// The period between polls when nothing is pending.
  package let interval: Duration

  /// A pace for polling every `interval` (at least a millisecond).
  package init(interval: Duration) {
    self.interval = max(interval, .milliseconds(1))
  }

  /// The period while a change is pending: 50 ms, never slower than the interval.
  package var pendingPeriod: Duration { min(Self.pendingPeriodLimit, interval) }

  /// What to do next.
  package enum Next: Equatable, Sendable {
    /// Poll at the interval.
    case interval
    /// Poll once after this long (then decide again).
    case after(Duration)
  }

  /// When to poll next, at `now`, given when the pending change settles (`settlesAt`, nil when
  /// nothing is pending): at the pending period, or earlier if the settle time falls sooner,
  /// so that a poll comes exactly when it can decide. Never a negative wait.
  package func next(now: SampleTime, settlesAt: SampleTime?) -> Next {
    guard let settlesAt else { return .interval }
    return .after(max(.zero, min(pendingPeriod, settlesAt - now)))
  }
}
