import Glibc

// The one place where system calls are retried after EINTR and their -1 becomes an errno.
// Every call in this module that can be interrupted goes through one of these.

/// Calls `body` until it is not interrupted; a negative result becomes the errno.
@inline(__always)
func retryingInterrupts<Value: FixedWidthInteger>(_ body: () -> Value) -> Result<Value, Errno> {
  while true {
    let result = callingOrFailingForTesting(body)
    if result >= 0 { return .success(result) }
    let code = Errno.current
    if code != .interrupted { return .failure(code) }
  }
}

/// Calls `body` until it is not interrupted and throws its errno, naming `operation`, on failure.
///
/// The operation's text is only built when the call fails.
@inline(__always)
func systemCall<Value: FixedWidthInteger>(
  _ operation: @autoclosure () -> String, _ body: () -> Value
) throws(SystemError) -> Value {
  switch retryingInterrupts(body) {
  case .success(let value): return value
  case .failure(let code): throw SystemError(operation(), code: code)
  }
}

/// For calls that return an errno number instead of setting errno (posix_spawn, pthreads).
@inline(__always)
func checkReturnedErrno(_ operation: @autoclosure () -> String, _ result: Int32) throws(SystemError) {
  guard result == 0 else { throw SystemError(operation(), code: Errno(rawValue: result)) }
}

/// `body()`, unless a test forced this thread's next call to fail (debug builds only): then -1,
/// with errno set, as the failed call would leave them.
@inline(__always)
private func callingOrFailingForTesting<Value: FixedWidthInteger>(_ body: () -> Value) -> Value {
  #if DEBUG
    if let forced = SystemCallFailuresForTesting.next() {
      errno = forced.rawValue
      return -1
    }
  #endif
  return body()
}

#if DEBUG
  /// Errnos a test forces on system calls, to reach failure paths the kernel seldom takes
  /// (debug builds only: a release build has none of this).
  ///
  /// The failures belong to the thread that asks for them and to the calls it makes through
  /// `retryingInterrupts` and `systemCall` while `forcing` runs, in order; other threads, and
  /// other tests running meanwhile, are not touched. `checkReturnedErrno` is not covered.
  package enum SystemCallFailuresForTesting {
    /// Runs `body` with the calling thread's next calls through this layer failing in turn with
    /// `outcomes`: an errno fails that call without making it, nil lets it through. Returns
    /// how many outcomes were left over (a test can check that its failures were reached).
    package static func forcing<Failure: Error>(
      _ outcomes: [Errno?], _ body: () throws(Failure) -> Void
    ) throws(Failure) -> Int {
      let box = Outcomes(outcomes)
      let previous = pthread_getspecific(key)
      pthread_setspecific(key, Unmanaged.passUnretained(box).toOpaque())
      defer { pthread_setspecific(key, previous) }
      try withExtendedLifetime(box) { () throws(Failure) in try body() }
      return box.outcomes.count
    }

    /// The forced outcome of the calling thread's next call: nil lets it through.
    static func next() -> Errno? {
      guard let pointer = pthread_getspecific(key) else { return nil }
      let box = Unmanaged<Outcomes>.fromOpaque(pointer).takeUnretainedValue()
      return box.outcomes.popFirst() ?? nil
    }

    private final class Outcomes {
      var outcomes: ArraySlice<Errno?>
      init(_ outcomes: [Errno?]) { self.outcomes = outcomes[...] }
    }

    private static let key: pthread_key_t = {
      var key = pthread_key_t()
      pthread_key_create(&key, nil)
      return key
    }()
  }
#endif
