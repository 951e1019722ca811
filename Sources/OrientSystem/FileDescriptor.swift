import CLinux
import Glibc

/// How a file is opened for access.
package enum AccessMode: Sendable {
  case readOnly
  case writeOnly
  case readWrite

  var flag: Int32 {
    switch self {
    case .readOnly: return O_RDONLY
    case .writeOnly: return O_WRONLY
    case .readWrite: return O_RDWR
    }
  }
}

/// Options for opening a file; every descriptor is opened close-on-exec.
package struct OpenOptions: OptionSet, Sendable {
  package let rawValue: Int32
  package init(rawValue: Int32) { self.rawValue = rawValue }

  package static let create = OpenOptions(rawValue: O_CREAT)
  package static let truncate = OpenOptions(rawValue: O_TRUNC)
  package static let append = OpenOptions(rawValue: O_APPEND)
  package static let exclusive = OpenOptions(rawValue: O_EXCL)
  package static let directory = OpenOptions(rawValue: O_DIRECTORY)
  package static let noFollow = OpenOptions(rawValue: O_NOFOLLOW)
  package static let nonBlocking = OpenOptions(rawValue: O_NONBLOCK)
}

/// An open file descriptor that this value owns: it is closed exactly once, when the value
/// is consumed by `close()` or goes out of scope.
///
/// Every operation retries after EINTR and throws a `SystemError` naming what failed.
package struct FileDescriptor: ~Copyable, Sendable {
  /// The descriptor number, for the event loop and for C libraries that take one.
  package let rawValue: Int32

  /// Takes ownership of an open descriptor.
  package init(adopting rawValue: Int32) { self.rawValue = rawValue }

  deinit { _ = Glibc.close(rawValue) }

  /// Closes the descriptor now.
  ///
  /// Linux releases the descriptor even when close fails, so close is never retried.
  package consuming func close() {
    let raw = rawValue
    discard self
    _ = Glibc.close(raw)
  }

  /// Gives the descriptor up without closing it; the caller owns the number from now on.
  package consuming func release() -> Int32 {
    let raw = rawValue
    discard self
    return raw
  }

  /// Opens `path`.
  package static func open(
    _ path: String, _ access: AccessMode, options: OpenOptions = [], permissions: mode_t = 0o644
  ) throws(SystemError) -> FileDescriptor {
    let flags = access.flag | options.rawValue | O_CLOEXEC
    let fd = try systemCall("open \(path)") { Glibc.open(path, flags, permissions) }
    return FileDescriptor(adopting: fd)
  }

  /// Reads up to `buffer.count` bytes; 0 at end of file.
  package func read(into buffer: UnsafeMutableRawBufferPointer) throws(SystemError) -> Int {
    try readDescriptor(rawValue, into: buffer)
  }

  /// Reads up to `buffer.count` bytes at `offset`, leaving the file position alone.
  ///
  /// A sysfs attribute produces a fresh value on every read at offset 0.
  package func read(into buffer: UnsafeMutableRawBufferPointer, atOffset offset: Int) throws(SystemError)
    -> Int
  {
    try systemCall("pread") { pread(rawValue, buffer.baseAddress, buffer.count, off_t(offset)) }
  }

  /// Reads until end of file; more than `limit` bytes is an error (EFBIG).
  package func readAll(limit: Int = 1 << 20) throws(SystemError) -> [UInt8] {
    try readAllOfDescriptor(rawValue, limit: limit)
  }

  /// Writes all of `bytes`, going on after partial writes.
  package func writeAll(_ bytes: UnsafeRawBufferPointer) throws(SystemError) {
    try writeAllToDescriptor(rawValue, bytes)
  }

  /// Writes all of a string's UTF-8 bytes.
  package func writeAll(_ text: String) throws(SystemError) {
    try writeAllToDescriptor(rawValue, text)
  }

  /// Flushes the file's data and metadata to the disk.
  package func sync() throws(SystemError) {
    _ = try systemCall("fsync") { fsync(rawValue) }
  }

  /// The file's type, identity and link count.
  package func status() throws(SystemError) -> FileStatus { FileStatus(try fileInformation(rawValue)) }

  /// The file's count of hard links (fstat); 0 once it was removed or replaced while open.
  ///
  /// For a check made on every poll, which needs nothing else of the status.
  package func linkCount() throws(SystemError) -> UInt64 { UInt64(try fileInformation(rawValue).st_nlink) }

  /// Sets the file's permission bits (fchmod): the file this descriptor holds, whatever its
  /// path leads to now.
  func setPermissions(_ permissions: mode_t) throws(SystemError) {
    _ = try systemCall("fchmod") { fchmod(rawValue, permissions) }
  }

  /// Whether the file lives on sysfs, where an attribute is regenerated on every read.
  ///
  /// The kernel is asked directly: a preloaded library (umockdev's) may claim sysfs for a
  /// file on another file system.
  package func isOnSysfs() throws(SystemError) -> Bool {
    try systemCall("fstatfs") { clinux_file_system_type(rawValue) } == SYSFS_MAGIC
  }

  /// Makes reads and writes return EAGAIN instead of waiting.
  package func setNonBlocking() throws(SystemError) {
    let flags = try systemCall("fcntl F_GETFL") { fcntl(rawValue, F_GETFL) }
    _ = try systemCall("fcntl F_SETFL") { fcntl(rawValue, F_SETFL, flags | O_NONBLOCK) }
  }

  /// Sets close-on-exec (for descriptors inherited from the service manager).
  func setCloseOnExec() throws(SystemError) {
    _ = try systemCall("fcntl F_SETFD") { fcntl(rawValue, F_SETFD, FD_CLOEXEC) }
  }
}

/// The standard streams, which the process does not own and never closes.
package struct StandardStream: Sendable {
  private let rawValue: Int32

  package static let input = StandardStream(rawValue: 0)
  package static let output = StandardStream(rawValue: 1)
  package static let error = StandardStream(rawValue: 2)

  /// The descriptor number, to wait on it.
  package var descriptor: Int32 { rawValue }

  /// Writes all of `text` with as few write(2) calls as the stream takes.
  package func write(_ text: String) throws(SystemError) {
    try writeAllToDescriptor(rawValue, text)
  }

  /// Writes a message where a failed write has nowhere to be reported (stderr).
  package func report(_ text: String) { try? write(text) }

  /// Reads up to `buffer.count` bytes; 0 at end of input.
  package func read(into buffer: UnsafeMutableRawBufferPointer) throws(SystemError) -> Int {
    try readDescriptor(rawValue, into: buffer)
  }

  /// The stream's type and identity (to tell whether stderr is the journal).
  package func status() throws(SystemError) -> FileStatus { FileStatus(try fileInformation(rawValue)) }
}

// MARK: Shared by owned descriptors and the standard streams

/// What fstat says of `fd`.
func fileInformation(_ fd: Int32) throws(SystemError) -> stat {
  var info = stat()
  _ = try systemCall("fstat") { fstat(fd, &info) }
  return info
}

func readDescriptor(_ fd: Int32, into buffer: UnsafeMutableRawBufferPointer) throws(SystemError) -> Int {
  try systemCall("read") { Glibc.read(fd, buffer.baseAddress, buffer.count) }
}

func readAllOfDescriptor(_ fd: Int32, limit: Int) throws(SystemError) -> [UInt8] {
  var result: [UInt8] = []
  let chunk = UnsafeMutableRawBufferPointer.allocate(byteCount: 65536, alignment: 1)
  defer { chunk.deallocate() }
  while true {
    let count = try readDescriptor(fd, into: chunk)
    if count == 0 { return result }
    guard result.count + count <= limit else {
      throw SystemError("read: more than \(limit) bytes", code: .fileTooLarge)
    }
    result.append(contentsOf: chunk[0..<count])
  }
}

func writeAllToDescriptor(_ fd: Int32, _ bytes: UnsafeRawBufferPointer) throws(SystemError) {
  var offset = 0
  while offset < bytes.count {
    offset += try systemCall("write") { Glibc.write(fd, bytes.baseAddress! + offset, bytes.count - offset) }
  }
}

func writeAllToDescriptor(_ fd: Int32, _ text: String) throws(SystemError) {
  var text = text
  try text.withUTF8 { bytes in
    Result { () throws(SystemError) in try writeAllToDescriptor(fd, UnsafeRawBufferPointer(bytes)) }
  }.get()
}
