import CLinux
import Glibc

/// Delivers signals through a signalfd on the event loop instead of async handlers.
package final class SignalWatcher {
  private let descriptor: FileDescriptor
  private let loop: EventLoop
  private var watch: Watch?

  /// Blocks `signals` for the process and calls `handler` on the loop when one arrives.
  ///
  /// Create it before starting any thread, so every thread inherits the mask.
  package init(loop: EventLoop, signals: [Signal], handler: @escaping (Signal) -> Void) throws(SystemError) {
    var mask = sigset_t()
    sigemptyset(&mask)
    for signal in signals { sigaddset(&mask, signal.rawValue) }
    try checkReturnedErrno("pthread_sigmask", pthread_sigmask(SIG_BLOCK, &mask, nil))
    let fd = try systemCall("signalfd") { signalfd(-1, &mask, Int32(SFD_NONBLOCK | SFD_CLOEXEC)) }
    descriptor = FileDescriptor(adopting: fd)
    self.loop = loop
    watch = try loop.watch(fd) { [unowned self] _ in
      while let signal = self.nextSignal() { handler(signal) }
    }
  }

  deinit {
    if let watch { loop.unwatch(watch) }
  }

  /// The next pending signal's number, or nil when none is pending.
  private func nextSignal() -> Signal? {
    var info = signalfd_siginfo()
    let size = MemoryLayout<signalfd_siginfo>.size
    // EAGAIN is the usual failure (none pending); any other leaves nothing to read either.
    let count = try? withUnsafeMutableBytes(of: &info) { (bytes) throws(SystemError) in
      try descriptor.read(into: bytes)
    }
    return count == size ? Signal(rawValue: Int32(info.ssi_signo)) : nil
  }
}

/// Ignores SIGPIPE so a closed reader shows up as EPIPE from write(2).
package func ignoreBrokenPipes() {
  _ = signal(SIGPIPE, SIG_IGN)
}
