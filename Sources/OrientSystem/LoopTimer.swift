/// A timer on the event loop: one-shot or periodic, silent while disarmed.
///
/// The loop keeps the deadline itself (see `EventLoop`), so a timer holds no descriptor
/// and a tick costs no system call.
public final class LoopTimer {
  private let loop: EventLoop
  private let token: UInt64
  private let handler: (UInt64) -> Void

  /// Creates a disarmed timer whose `handler` gets the number of expirations since the last call.
  public init(loop: EventLoop, handler: @escaping (UInt64) -> Void) {
    self.loop = loop
    self.handler = handler
    token = loop.newTimerToken()
  }

  deinit { loop.disarmTimer(token) }

  /// Fires once after `delay` nanoseconds (at once if 0), then every `interval` if it is not 0.
  public func schedule(afterNanoseconds delay: UInt64, repeatingEveryNanoseconds interval: UInt64 = 0) {
    loop.armTimer(token, deadline: Clock.monotonicNanoseconds + delay, interval: interval, handler: handler)
  }

  /// Disarms the timer.
  public func cancel() { loop.disarmTimer(token) }
}
