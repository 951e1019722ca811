import Glibc

/// A directory held open, whose entries are reached by name relative to its descriptor.
///
/// Once it is open, nothing done to the path above it (an ancestor renamed or swapped for a
/// symbolic link) changes which directory a name lands in, and no name given here follows a
/// symbolic link. Get one with `openTrusted(_:creating:)`. It is immutable: its operations may
/// be called from any thread.
package final class DirectoryDescriptor: Sendable {
  /// The directory's path as it was asked for, for messages.
  package let path: String
  private let descriptor: FileDescriptor

  init(path: String, descriptor: consuming FileDescriptor) {
    self.path = path
    self.descriptor = descriptor
  }

  /// The descriptor number.
  var rawValue: Int32 { descriptor.rawValue }

  /// `name` inside the directory, as a path for messages.
  package func path(of name: String) -> String { path.hasSuffix("/") ? path + name : path + "/" + name }

  /// The directory's own status.
  package func status() throws(SystemError) -> FileStatus { try descriptor.status() }

  /// The status of the entry `name` itself (a symbolic link is not followed); nil if there is none.
  package func status(of name: String) throws(SystemError) -> FileStatus? {
    var info = stat()
    switch retryingInterrupts({ fstatat(rawValue, name, &info, AT_SYMLINK_NOFOLLOW) }) {
    case .success: return FileStatus(info)
    case .failure(.noSuchFile): return nil
    case .failure(let code): throw SystemError("stat \(path(of: name))", code: code)
    }
  }

  /// Opens the entry `name`; a symbolic link there is an error (ELOOP), never followed.
  package func open(
    _ name: String, _ access: AccessMode, options: OpenOptions = [], permissions: mode_t = 0o644
  ) throws(SystemError) -> FileDescriptor {
    let flags = access.flag | options.rawValue | O_NOFOLLOW | O_NOCTTY | O_CLOEXEC
    let fd = try systemCall("open \(path(of: name))") { openat(rawValue, name, flags, permissions) }
    return FileDescriptor(adopting: fd)
  }

  /// Renames the entry `source` over `destination`, both in this directory, atomically.
  ///
  /// A symbolic link at `destination` is replaced, not followed.
  package func rename(_ source: String, to destination: String) throws(SystemError) {
    _ = try systemCall("rename \(path(of: source)) to \(path(of: destination))") {
      renameat(rawValue, source, rawValue, destination)
    }
  }

  /// Removes the entry `name` (not a directory).
  package func remove(_ name: String) throws(SystemError) {
    _ = try systemCall("unlink \(path(of: name))") { unlinkat(rawValue, name, 0) }
  }

  /// The names in the directory, without `.` and `..`, in no particular order.
  package func entries() throws(SystemError) -> [String] {
    // A descriptor of its own: readdir moves the descriptor's position, and closedir closes it.
    let own = try systemCall("open \(path)") { openat(rawValue, ".", O_RDONLY | O_DIRECTORY | O_CLOEXEC) }
    guard let handle = fdopendir(own) else {
      let error = SystemError("opendir \(path)", code: .current)
      _ = Glibc.close(own)
      throw error
    }
    defer { closedir(handle) }
    return FileSystem.names(in: handle)
  }

  /// Flushes the directory's entries (a rename in it) to the disk.
  package func sync() throws(SystemError) {
    _ = try systemCall("fsync \(path)") { fsync(rawValue) }
  }
}
