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
  func time(at instant: MonotonicInstant) -> SampleTime { SampleTime(sinceOrigin: instant - origin) }

  /// The sample time now.
  var now: SampleTime { time(at: .now) }
}
