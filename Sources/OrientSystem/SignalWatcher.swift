import CLinux
import Glibc

/// Delivers signals through a signalfd on the event loop instead of async handlers.
public final class SignalWatcher {
  private let descriptor: Int32
  private let loop: EventLoop
  private var watch: Watch?

  /// Blocks `signals` for the process and calls `handler` on the loop when one arrives.
  ///
  /// Create it before starting any thread, so every thread inherits the mask.
  public init(loop: EventLoop, signals: [Int32], handler: @escaping (Int32) -> Void) throws(SystemError) {
    var mask = sigset_t()
    sigemptyset(&mask)
    for signal in signals { sigaddset(&mask, signal) }
    guard pthread_sigmask(SIG_BLOCK, &mask, nil) == 0 else { throw SystemError("pthread_sigmask") }
    descriptor = clinux_signalfd(&mask)
    guard descriptor >= 0 else { throw SystemError("signalfd") }
    self.loop = loop
    let fd = descriptor
    watch = try loop.watch(fd) { _ in
      while case let signal = clinux_signalfd_read(fd), signal > 0 {
        handler(signal)
      }
    }
  }

  deinit {
    if let watch { loop.unwatch(watch) }
    _ = Glibc.close(descriptor)
  }
}

/// Ignores SIGPIPE so a closed reader shows up as EPIPE from write(2).
public func ignoreBrokenPipes() {
  _ = signal(SIGPIPE, SIG_IGN)
}
