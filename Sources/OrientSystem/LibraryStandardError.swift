import CLinux

/// What C libraries print with `fprintf(stderr, ...)`, taken before it reaches descriptor 2.
///
/// libiio and libxml2 print what a server sent them, control characters included, as often as
/// they are made to. Their text goes through stdio's `stderr` stream; replacing that stream
/// (not descriptor 2) hands it to orientd's own log, which escapes and limits it.
///
/// Why the stream and not descriptor 2 (a pipe read by the event loop):
/// - the handler runs in the thread that prints, at once: nothing is buffered between threads,
///   and no text waits for a loop that may be busy or gone;
/// - the Swift runtime prints its fatal error messages through the same stream just before a
///   crash, where a pipe would keep them from ever being read;
/// - descriptor 2 stays the real stderr, which hook programs inherit and crash reports use.
/// Text written to descriptor 2 directly (not through stdio) is not taken.
package enum LibraryStandardError {
  nonisolated(unsafe) private static var handler: (@Sendable (UnsafeRawBufferPointer) -> Void)?

  /// From now on, stdio's `stderr` output goes to `handler`, in the thread that writes it, in
  /// whole lines (a line longer than stdio's buffer comes in pieces; text flushed without a
  /// newline comes as it is). Call it once, before any thread starts.
  package static func redirect(to handler: @escaping @Sendable (UnsafeRawBufferPointer) -> Void)
    throws(SystemError)
  {
    self.handler = handler
    _ = try systemCall("fopencookie") {
      clinux_redirect_stdio_stderr { _, bytes, count in
        if let bytes { LibraryStandardError.handler?(UnsafeRawBufferPointer(start: bytes, count: count)) }
        return count
      }
    }
  }
}
