import OrientSystem
import Testing

extension EventLoop {
  /// Runs the loop a round at a time until `condition` holds; false if it still does not after
  /// `limit` of real time (a failure, never a premise: the rounds wait on the loop's
  /// descriptors, not on the clock).
  func turn(until condition: () -> Bool, within limit: Duration) -> Bool {
    let deadline = MonotonicInstant.now + limit
    while !condition() {
      guard MonotonicInstant.now < deadline else { return false }
      do {
        try runRound(waitingAtMost: .milliseconds(50))
      } catch {
        Issue.record("the loop failed: \(error)")
        return false
      }
    }
    return true
  }
}
