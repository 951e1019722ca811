/// When each sample of a real-time replay is due on the monotonic clock.
///
/// Trace times come from a file, so every step saturates instead of trapping: a sample
/// due past the end of the clock is due "never", and one wait never exceeds
/// `longestWaitNanoseconds`, so what is handed to the event loop stays small whatever the
/// trace says.
public struct ReplaySchedule: Sendable {
  /// The monotonic time at which the first sample was played.
  public let startNanoseconds: UInt64
  /// The first sample's trace time, played at `startNanoseconds`.
  public let firstTime: SampleTime
  /// With a loop, the time from one pass's start to the next's.
  public let loopLengthMicroseconds: Int64?

  /// The longest single wait: one hour. A sample due later is waited for in steps.
  public static let longestWaitNanoseconds: UInt64 = 3_600_000_000_000

  /// A schedule that plays `firstTime` at `startNanoseconds`.
  public init(startNanoseconds: UInt64, firstTime: SampleTime, loopLengthMicroseconds: Int64? = nil) {
    self.startNanoseconds = startNanoseconds
    self.firstTime = firstTime
    self.loopLengthMicroseconds = loopLengthMicroseconds.map { max($0, 0) }
  }

  /// How much later than the first pass the times of pass `pass` (0 for the first) run.
  public func passOffsetMicroseconds(pass: Int64) -> Int64 {
    guard let loopLengthMicroseconds, pass > 0 else { return 0 }
    let (product, overflow) = loopLengthMicroseconds.multipliedReportingOverflow(by: pass)
    return overflow ? .max : product
  }

  /// The monotonic time at which `time` is due in pass `pass`; `UInt64.max` when that is
  /// beyond the clock. A time before the first one is due at the start.
  public func dueNanoseconds(of time: SampleTime, pass: Int64 = 0) -> UInt64 {
    var sinceFirst: Int64 = 0
    if time > firstTime {
      let (difference, tooFar) = time.microseconds.subtractingReportingOverflow(firstTime.microseconds)
      guard !tooFar else { return .max }
      sinceFirst = difference
    }
    let (offset, overflow) = sinceFirst.addingReportingOverflow(passOffsetMicroseconds(pass: pass))
    guard !overflow else { return .max }
    let (nanoseconds, tooLong) = UInt64(offset).multipliedReportingOverflow(by: 1000)
    guard !tooLong else { return .max }
    let (due, pastEnd) = startNanoseconds.addingReportingOverflow(nanoseconds)
    return pastEnd ? .max : due
  }

  /// How long to wait at `now` for something due at `due`: nil when it is due already,
  /// else at most `longestWaitNanoseconds`.
  public static func wait(until due: UInt64, now: UInt64) -> UInt64? {
    guard due > now else { return nil }
    return min(due - now, longestWaitNanoseconds)
  }
}
