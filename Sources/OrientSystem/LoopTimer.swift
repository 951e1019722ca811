/// A timer on the event loop: one-shot or periodic, silent while disarmed.
///
/// The loop keeps the deadline itself (see `EventLoop`), so a timer holds no descriptor
/// and a tick costs no system call.
package final class LoopTimer {
  private let loop: EventLoop
  private let token: UInt64
  private let handler: (UInt64) -> Void

  /// Creates a disarmed timer whose `handler` gets the number of expirations since the last call.
  package init(loop: EventLoop, handler: @escaping (UInt64) -> Void) {
    self.loop = loop
    self.handler = handler
    token = loop.newTimerToken()
  }

  deinit { loop.disarmTimer(token) }

  /// Fires once after `delay` (at once if zero or less), then every `interval` if one is given.
  package func schedule(after delay: Duration, repeating interval: Duration? = nil) {
    loop.armTimer(
      token, deadline: loop.currentTime + max(delay, .zero),
      interval: interval.map { UInt64(max(1, $0.wholeNanoseconds)) } ?? 0, handler: handler)
  }

  /// Fires once at `deadline` (at once if it has passed).
  package func schedule(at deadline: MonotonicInstant) {
    loop.armTimer(token, deadline: deadline, interval: 0, handler: handler)
  }

  /// Disarms the timer.
  package func cancel() { loop.disarmTimer(token) }
}
