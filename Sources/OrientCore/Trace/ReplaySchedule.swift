/// When each sample of a real-time replay is due, as a time after the replay's start.
///
/// Trace times come from a file, so every step saturates instead of trapping: a sample
/// due past any clock is due "never" (nil), and one wait never exceeds `longestWait`, so what
/// is handed to the event loop stays small whatever the trace says.
package struct ReplaySchedule: Sendable {
  /// The first sample's trace time, played at the start.
  package let firstTime: SampleTime
  /// With a loop, the time from one pass's start to the next's.
  package let loopLength: Duration?

  /// The longest single wait: one hour. A sample due later is waited for in steps.
  static let longestWait = Duration.seconds(3600)

  /// The latest a sample may be due: about 292 years after the start, as far as a monotonic
  /// clock counting nanoseconds in 64 bits reaches.
  static let latestDue = Duration.nanoseconds(Int64.max)

  /// A schedule that plays `firstTime` at the start.
  package init(firstTime: SampleTime, loopLength: Duration? = nil) {
    self.firstTime = firstTime
    self.loopLength = loopLength.map { max($0, .zero) }
  }

  /// How much later than the first pass the times of pass `pass` (0 for the first) run;
  /// saturating.
  package func passOffset(pass: Int64) -> Duration {
    guard let loopLength, pass > 0 else { return .zero }
    let (product, overflow) = loopLength.wholeMicroseconds.multipliedReportingOverflow(by: pass)
    return .microseconds(overflow ? Int64.max : product)
  }

  /// How long after the start `time` is due in pass `pass`; nil when that is beyond any clock.
  /// A time before the first one is due at the start.
  package func due(_ time: SampleTime, pass: Int64 = 0) -> Duration? {
    var sinceFirst: Int64 = 0
    if time > firstTime {
      let (difference, tooFar) = time.microseconds.subtractingReportingOverflow(firstTime.microseconds)
      guard !tooFar else { return nil }
      sinceFirst = difference
    }
    let (offset, overflow) = sinceFirst.addingReportingOverflow(passOffset(pass: pass).wholeMicroseconds)
    guard !overflow else { return nil }
    let due = Duration.microseconds(offset)
    return due <= Self.latestDue ? due : nil
  }

  /// How long to wait, `elapsed` after the start, for something due at `due` (nil: never):
  /// nil when it is due already, else at most `longestWait`.
  package static func wait(until due: Duration?, elapsed: Duration) -> Duration? {
    guard let due else { return longestWait }
    guard due > elapsed else { return nil }
    return min(due - elapsed, longestWait)
  }
}
