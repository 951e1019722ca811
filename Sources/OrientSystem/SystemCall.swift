import Glibc

// The one place where system calls are retried after EINTR and their -1 becomes an errno.
// Every call in this module that can be interrupted goes through one of these.

/// Calls `body` until it is not interrupted; a negative result becomes the errno.
@inline(__always)
func retryingInterrupts<Value: FixedWidthInteger>(_ body: () -> Value) -> Result<Value, Errno> {
  while true {
    let result = body()
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
