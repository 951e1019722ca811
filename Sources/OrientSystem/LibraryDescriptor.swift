import Glibc

/// A descriptor a C library owns (libudev's monitor socket): this process may set its flags
/// but never closes it.
package struct LibraryDescriptor: Sendable {
  /// The descriptor's number.
  package let rawValue: Int32

  /// The library's descriptor `rawValue`.
  package init(_ rawValue: Int32) { self.rawValue = rawValue }

  /// Makes reads return EAGAIN instead of waiting, whatever the library chose: a read on the
  /// event loop must never wait.
  package func setNonBlocking() throws(SystemError) {
    let flags = try systemCall("fcntl F_GETFL") { fcntl(rawValue, F_GETFL) }
    guard flags & O_NONBLOCK == 0 else { return }
    _ = try systemCall("fcntl F_SETFL") { fcntl(rawValue, F_SETFL, flags | O_NONBLOCK) }
  }
}
