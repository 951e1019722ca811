import OrientCore
import OrientSystem

/// The run's one time line: turns instants of the monotonic clock into the `SampleTime`s that
/// samples, changes and `--dump` lines carry, all counted from the same origin.
struct SampleClock: Sendable {
  /// The instant that is sample time zero: when the daemon started.
  let origin: MonotonicInstant

  /// A clock whose time zero is `origin`.
  init(origin: MonotonicInstant = .now) { self.origin = origin }

  /// The sample time of `instant`, in whole microseconds straight from the clock's nanoseconds.
  ///
  /// The wrapping difference read as signed is exact while the two are within 292 years.
  func time(at instant: MonotonicInstant) -> SampleTime {
    SampleTime(sinceOriginNanoseconds: Int64(bitPattern: instant.nanoseconds &- origin.nanoseconds))
  }

  /// The sample time now.
  var now: SampleTime { time(at: .now) }
}
