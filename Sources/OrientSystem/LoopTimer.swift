import CLinux
import Glibc

/// A timerfd on the event loop: one-shot or periodic, silent while disarmed.
public final class LoopTimer {
  private let descriptor: Int32
  private let loop: EventLoop
  private var watch: Watch?

  /// Creates a disarmed timer whose `handler` gets the number of expirations since the last call.
  public init(loop: EventLoop, handler: @escaping (UInt64) -> Void) throws(SystemError) {
    descriptor = clinux_timerfd_create()
    guard descriptor >= 0 else { throw SystemError("timerfd_create") }
    self.loop = loop
    let fd = descriptor
    watch = try loop.watch(fd) { _ in
      let expirations = clinux_timerfd_read(fd)
      if expirations > 0 { handler(expirations) }
    }
  }

  deinit {
    if let watch { loop.unwatch(watch) }
    _ = Glibc.close(descriptor)
  }

  /// Fires once after `delay` nanoseconds (at once if 0), then every `interval` if it is not 0.
  public func schedule(afterNanoseconds delay: UInt64, repeatingEveryNanoseconds interval: UInt64 = 0) {
    // A zero first expiry would disarm the timer: use the shortest real delay instead.
    _ = clinux_timerfd_set(descriptor, max(delay, 1), interval)
  }

  /// Disarms the timer.
  public func cancel() { _ = clinux_timerfd_set(descriptor, 0, 0) }
}
