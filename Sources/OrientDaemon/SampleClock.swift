import OrientCore
import OrientSystem

/// The run's one time line: turns instants of the monotonic clock into the `SampleTime`s that
/// samples, changes and `--dump` lines carry, all counted from the same origin.
struct SampleClock: Sendable {
  /// The instant that is sample time zero: when the daemon started.
  let origin: MonotonicInstant

  /// A clock whose time zero is `origin`.
  init(origin: MonotonicInstant = .now) { self.origin = origin }

  /// The sample time of `instant`.
  ///
  /// Whole microseconds straight from the clock's nanoseconds, as `instant - origin` would give
  /// them: every sample is timed here, and the `Duration` in between cost more than the rest.
  func time(at instant: MonotonicInstant) -> SampleTime {
    guard instant >= origin else { return SampleTime(sinceOrigin: instant - origin) }
    return SampleTime(microseconds: Int64(clamping: (instant.nanoseconds - origin.nanoseconds) / 1000))
  }

  /// The sample time now.
  var now: SampleTime { time(at: .now) }
}
