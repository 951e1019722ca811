import Glibc

/// An errno value, with names for the ones orientd decides on.
public struct Errno: RawRepresentable, Error, Hashable, Sendable, CustomStringConvertible {
  /// The number, as errno holds it.
  public let rawValue: Int32

  /// Wraps an errno number.
  public init(rawValue: Int32) { self.rawValue = rawValue }

  /// The calling thread's errno now.
  public static var current: Errno { Errno(rawValue: errno) }

  public static let interrupted = Errno(rawValue: EINTR)
  public static let wouldBlock = Errno(rawValue: EAGAIN)
  public static let noSuchFile = Errno(rawValue: ENOENT)
  public static let noDevice = Errno(rawValue: ENODEV)
  public static let noSuchDeviceOrAddress = Errno(rawValue: ENXIO)
  public static let ioError = Errno(rawValue: EIO)
  public static let badDescriptor = Errno(rawValue: EBADF)
  public static let exists = Errno(rawValue: EEXIST)
  public static let permissionDenied = Errno(rawValue: EPERM)
  public static let accessDenied = Errno(rawValue: EACCES)
  static let notImplemented = Errno(rawValue: ENOSYS)
  public static let brokenPipe = Errno(rawValue: EPIPE)
  static let connectionRefused = Errno(rawValue: ECONNREFUSED)
  public static let connectionReset = Errno(rawValue: ECONNRESET)
  static let connectionAborted = Errno(rawValue: ECONNABORTED)
  public static let notConnected = Errno(rawValue: ENOTCONN)
  public static let shutDown = Errno(rawValue: ESHUTDOWN)
  static let addressInUse = Errno(rawValue: EADDRINUSE)
  static let inProgress = Errno(rawValue: EINPROGRESS)
  public static let notASocket = Errno(rawValue: ENOTSOCK)
  static let nameTooLong = Errno(rawValue: ENAMETOOLONG)
  public static let invalidArgument = Errno(rawValue: EINVAL)
  public static let timedOut = Errno(rawValue: ETIMEDOUT)
  static let noSpace = Errno(rawValue: ENOSPC)
  public static let fileTooLarge = Errno(rawValue: EFBIG)
  static let noChild = Errno(rawValue: ECHILD)

  /// The C library's text, e.g. `No such file or directory`.
  public var description: String { String(cString: strerror(rawValue)) }
}

extension Errno {
  /// This process has as many descriptors open as its limit allows (EMFILE).
  public static let tooManyOpenFiles = Errno(rawValue: EMFILE)
  /// The whole system has as many files open as it allows (ENFILE).
  public static let tooManyOpenFilesInSystem = Errno(rawValue: ENFILE)
}
