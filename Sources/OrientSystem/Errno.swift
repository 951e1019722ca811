import Glibc

/// An errno value, with names for the ones orientd decides on.
package struct Errno: RawRepresentable, Error, Hashable, Sendable, CustomStringConvertible {
  /// The number, as errno holds it.
  package let rawValue: Int32

  /// Wraps an errno number.
  package init(rawValue: Int32) { self.rawValue = rawValue }

  /// The calling thread's errno now.
  package static var current: Errno { Errno(rawValue: errno) }

  package static let interrupted = Errno(rawValue: EINTR)
  package static let wouldBlock = Errno(rawValue: EAGAIN)
  package static let noSuchFile = Errno(rawValue: ENOENT)
  package static let noDevice = Errno(rawValue: ENODEV)
  package static let noSuchDeviceOrAddress = Errno(rawValue: ENXIO)
  package static let ioError = Errno(rawValue: EIO)
  package static let badDescriptor = Errno(rawValue: EBADF)
  package static let exists = Errno(rawValue: EEXIST)
  package static let permissionDenied = Errno(rawValue: EPERM)
  package static let accessDenied = Errno(rawValue: EACCES)
  static let notImplemented = Errno(rawValue: ENOSYS)
  package static let brokenPipe = Errno(rawValue: EPIPE)
  static let connectionRefused = Errno(rawValue: ECONNREFUSED)
  package static let connectionReset = Errno(rawValue: ECONNRESET)
  static let connectionAborted = Errno(rawValue: ECONNABORTED)
  package static let notConnected = Errno(rawValue: ENOTCONN)
  package static let shutDown = Errno(rawValue: ESHUTDOWN)
  static let addressInUse = Errno(rawValue: EADDRINUSE)
  static let inProgress = Errno(rawValue: EINPROGRESS)
  package static let notASocket = Errno(rawValue: ENOTSOCK)
  static let nameTooLong = Errno(rawValue: ENAMETOOLONG)
  package static let invalidArgument = Errno(rawValue: EINVAL)
  package static let timedOut = Errno(rawValue: ETIMEDOUT)
  static let noSpace = Errno(rawValue: ENOSPC)
  package static let fileTooLarge = Errno(rawValue: EFBIG)
  static let noChild = Errno(rawValue: ECHILD)

  /// The C library's text, e.g. `No such file or directory`.
  package var description: String { String(cString: strerror(rawValue)) }
}

extension Errno {
  /// This process has as many descriptors open as its limit allows (EMFILE).
  package static let tooManyOpenFiles = Errno(rawValue: EMFILE)
  /// The whole system has as many files open as it allows (ENFILE).
  package static let tooManyOpenFilesInSystem = Errno(rawValue: ENFILE)
}
