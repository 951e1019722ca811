import CLinux
import Glibc

/// A POSIX thread running one closure, which the owner can wait for with a time limit.
package final class WorkerThread: Sendable {
  private let thread: pthread_t

  /// Starts `body` on a new thread. Signals the caller blocked stay blocked in it.
  package init(name: String, _ body: @escaping @Sendable () -> Void) throws(SystemError) {
    let box = Unmanaged.passRetained(Body(body)).toOpaque()
    var created = pthread_t()
    let result = pthread_create(
      &created, nil,
      { context in
        let body = Unmanaged<Body>.fromOpaque(context!).takeRetainedValue()
        body.run()
        return nil
      }, box)
    guard result == 0 else {
      Unmanaged<Body>.fromOpaque(box).release()
      throw SystemError("pthread_create", code: Errno(rawValue: result))
    }
    thread = created
    _ = clinux_thread_name(thread, String(name.prefix(15)))
  }

  /// Waits up to `timeout` for the thread to finish; false if it is still running.
  package func join(within timeout: Duration) -> Bool {
    clinux_thread_join(thread, max(0, timeout.wholeNanoseconds)) == 0
  }

  private final class Body {
    let run: @Sendable () -> Void
    init(_ run: @escaping @Sendable () -> Void) { self.run = run }
  }
}
