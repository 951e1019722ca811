import Glibc

/// Why a file that must be a small regular file (a config or state file) was not read.
package enum RegularFileError: Error, Sendable, CustomStringConvertible {
  case missing(path: String)
  /// A symbolic link where links are not followed.
  case symbolicLink(path: String)
  /// A FIFO, a device, a directory or a socket: reading it could wait forever or never end.
  case notRegular(path: String, kind: FileStatus.Kind)
  case tooLarge(path: String, limit: Int)
  /// Owned by someone other than root or this process's user, where only those may write.
  case ownedByAnotherUser(path: String, uid: UInt32)
  case system(SystemError)

  package var description: String {
    switch self {
    case .missing(let path): return "\(path) does not exist"
    case .symbolicLink(let path): return "\(path) is a symbolic link, which is not followed there"
    case .notRegular(let path, let kind): return "\(path) is \(kind.name), not a regular file"
    case .tooLarge(let path, let limit): return "\(path) is larger than \(limit) bytes"
    case .ownedByAnotherUser(let path, let uid):
      return "\(path) is owned by uid \(uid), not by root or orientd's user"
    case .system(let error): return "\(error)"
    }
  }
}

extension FileSystem {
  /// Reads the regular file at `path`, at most `limit` bytes; symbolic links are followed (the
  /// path is the user's own choice). A FIFO or a device is refused before it is opened, so
  /// nothing waits for a writer or reads without end; /dev/null, the usual "no file", reads
  /// as empty.
  package static func readRegularFile(_ path: String, limit: Int) throws(RegularFileError) -> [UInt8] {
    var info = stat()
    switch retryingInterrupts({ stat(path, &info) }) {
    case .success: break
    case .failure(.noSuchFile): throw .missing(path: path)
    case .failure(let code): throw .system(SystemError("stat \(path)", code: code))
    }
    let found = FileStatus(info)
    if found.isNullDevice { return [] }
    guard found.kind == .regular else { throw .notRegular(path: path, kind: found.kind) }
    // O_NONBLOCK: should a FIFO take the file's place meanwhile, opening it does not wait.
    let flags = O_RDONLY | O_NONBLOCK | O_NOCTTY | O_CLOEXEC
    let file: FileDescriptor
    switch retryingInterrupts({ open(path, flags) }) {
    case .success(let fd): file = FileDescriptor(adopting: fd)
    case .failure(.noSuchFile): throw .missing(path: path)
    case .failure(let code): throw .system(SystemError("open \(path)", code: code))
    }
    return try readRegular(file, path: path, limit: limit, ownerMustBeUs: false)
  }
}

extension DirectoryDescriptor {
  /// Reads the regular file `name` in this directory, at most `limit` bytes. A symbolic link
  /// is not followed, a file owned by someone other than root or this process's user is
  /// refused, and a FIFO or a device is refused before it is opened.
  package func readRegularFile(_ name: String, limit: Int) throws(RegularFileError) -> [UInt8] {
    let path = path(of: name)
    let found: FileStatus?
    do {
      found = try status(of: name)
    } catch {
      throw .system(error)
    }
    guard let found else { throw .missing(path: path) }
    guard found.kind != .symbolicLink else { throw .symbolicLink(path: path) }
    guard found.kind == .regular else { throw .notRegular(path: path, kind: found.kind) }
    let file: FileDescriptor
    do {
      file = try open(name, .readOnly, options: .nonBlocking)
    } catch {
      switch error.code {
      case .noSuchFile: throw .missing(path: path)
      case Errno(rawValue: ELOOP): throw .symbolicLink(path: path)
      default: throw .system(error)
      }
    }
    return try readRegular(file, path: path, limit: limit, ownerMustBeUs: true)
  }
}

/// Checks what `file` is now that it is open, then reads it whole, at most `limit` bytes.
private func readRegular(_ file: borrowing FileDescriptor, path: String, limit: Int, ownerMustBeUs: Bool)
  throws(RegularFileError) -> [UInt8]
{
  let status: FileStatus
  do {
    status = try file.status()
  } catch {
    throw .system(SystemError("fstat \(path)", code: error.code))
  }
  guard status.kind == .regular else { throw .notRegular(path: path, kind: status.kind) }
  if ownerMustBeUs, !DirectoryTrust.isOwnedByUs(status) {
    throw .ownedByAnotherUser(path: path, uid: status.owner)
  }
  do {
    return try file.readAll(limit: limit)
  } catch  where error.code == .fileTooLarge {
    throw .tooLarge(path: path, limit: limit)
  } catch {
    throw .system(SystemError("read \(path)", code: error.code))
  }
}
