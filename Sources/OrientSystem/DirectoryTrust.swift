import CLinux
import Glibc

/// The rules for a directory orientd keeps its own files in, and for every directory above it.
enum DirectoryTrust {
  static let effectiveUser = geteuid()

  /// Owned by root or this process's user, so nobody else may change its mode or owner.
  static func isOwnedByUs(_ status: FileStatus) -> Bool { status.isOwnedByRootOrUs }

  /// Nobody but its owner may add, remove or rename entries: the place a symbolic link may be
  /// followed from.
  static func isPrivate(_ status: FileStatus) -> Bool {
    isOwnedByUs(status) && status.permissions & 0o022 == 0
  }

  /// Why `status` is not safe for orientd's files, or nil. A directory others may write is
  /// safe with the sticky bit (as /tmp is): they may add entries but not remove or rename
  /// orientd's.
  static func problem(with status: FileStatus) -> DirectoryRefusal.Reason? {
    guard status.kind == .directory else { return .notADirectory }
    guard isOwnedByUs(status) else { return .ownedByAnotherUser(uid: status.owner) }
    guard status.permissions & 0o022 == 0 || status.permissions & UInt32(S_ISVTX) != 0 else {
      return .writableByOthers(permissions: status.permissions)
    }
    return nil
  }
}

extension DirectoryDescriptor {
  /// The mode of the directories this creates.
  static let createdDirectoryPermissions: mode_t = 0o755

  /// Opens the directory `path` for orientd's own files, walking from `/` one component at a
  /// time: every directory on the way must be owned by root or this process's user and be
  /// writable by nobody else, unless it has the sticky bit. A symbolic link is followed only
  /// from a directory that nobody else may write (`/var/run -> /run` is fine; a link in /tmp
  /// is not). Missing directories are made, mode 0755, when `creating`.
  ///
  /// The walk holds each directory open while it looks into it, so a directory swapped or
  /// renamed meanwhile cannot send it elsewhere.
  package static func openTrusted(_ path: String, creating: Bool) throws(DirectoryRefusal)
    -> DirectoryDescriptor
  {
    var walk = try TrustedWalk(directory: path)
    let absolute: String
    if path.hasPrefix("/") {
      absolute = path
    } else {
      do {
        absolute = try FileSystem.currentDirectory() + "/" + path
      } catch {
        throw walk.refusal(".", .cannotOpen(error.code))
      }
    }
    // The components still to walk, the next one last.
    var pending = Array(absolute.split(separator: "/").map(String.init).reversed())
    var linksFollowed = 0
    while let name = pending.popLast() {
      switch name {
      case ".":
        continue
      case "..":
        try walk.enterParent()
      default:
        guard let target = try walk.enter(name, creating: creating) else { continue }
        linksFollowed += 1
        guard linksFollowed <= 40 else { throw walk.refusal(walk.path(of: name), .tooManyLinks) }
        if target.hasPrefix("/") { try walk.restartAtRoot() }
        pending += target.split(separator: "/").map(String.init).reversed()
      }
    }
    return try walk.finish()
  }
}

/// A directory opened on the walk, with its status at that moment.
private struct OpenedDirectory: ~Copyable {
  var descriptor: FileDescriptor
  let status: FileStatus
}

extension Errno {
  fileprivate static let notADirectory = Errno(rawValue: ENOTDIR)
}

/// One walk down a path: the directory reached so far, held open.
private struct TrustedWalk: ~Copyable {
  let directory: String
  private var current: FileDescriptor
  private var currentStatus: FileStatus
  /// The components of the current directory's path, as walked (links resolved).
  private var names: [String] = []

  private static let pathFlag = clinux_open_path_flag()

  init(directory: String) throws(DirectoryRefusal) {
    self.directory = directory
    let root = try Self.openChecked(AT_FDCWD, "/", display: "/", directory: directory)
    current = root.descriptor
    currentStatus = root.status
  }

  var currentPath: String { "/" + names.joined(separator: "/") }

  func path(of name: String) -> String { names.isEmpty ? "/" + name : currentPath + "/" + name }

  func refusal(_ offending: String, _ reason: DirectoryRefusal.Reason) -> DirectoryRefusal {
    DirectoryRefusal(directory: directory, offending: offending, reason: reason)
  }

  mutating func restartAtRoot() throws(DirectoryRefusal) {
    let root = try Self.openChecked(AT_FDCWD, "/", display: "/", directory: directory)
    current = root.descriptor
    currentStatus = root.status
    names = []
  }

  mutating func enterParent() throws(DirectoryRefusal) {
    guard !names.isEmpty else { return }
    let display = "/" + names.dropLast().joined(separator: "/")
    let parent = try Self.openChecked(current.rawValue, "..", display: display, directory: directory)
    current = parent.descriptor
    currentStatus = parent.status
    names.removeLast()
  }

  /// Goes into `name`; returns a symbolic link's target instead when `name` is one.
  mutating func enter(_ name: String, creating: Bool) throws(DirectoryRefusal) -> String? {
    let display = path(of: name)
    // Twice at most: once more after finding the directory made by someone else meanwhile.
    for _ in 0..<2 {
      switch Self.open(current.rawValue, name, flags: Self.pathFlag) {
      case .success(let fd):
        let entered = try Self.checked(FileDescriptor(adopting: fd), display: display, directory: directory)
        current = entered.descriptor
        currentStatus = entered.status
        names.append(name)
        return nil
      case .failure(.notADirectory):
        return try linkTarget(name)
      case .failure(.noSuchFile) where creating:
        switch retryingInterrupts({
          mkdirat(current.rawValue, name, DirectoryDescriptor.createdDirectoryPermissions)
        })
        {
        case .success:
          try enterCreated(name)
          return nil
        case .failure(.exists):
          continue
        case .failure(let code):
          throw refusal(display, .cannotCreate(code))
        }
      case .failure(let code):
        throw refusal(display, .cannotOpen(code))
      }
    }
    throw refusal(display, .cannotOpen(.exists))
  }

  /// Goes into a directory this walk just made, giving it its mode if the umask took bits away.
  private mutating func enterCreated(_ name: String) throws(DirectoryRefusal) {
    let display = path(of: name)
    // Opened for reading, not O_PATH: fchmod needs a real descriptor.
    let fd: FileDescriptor
    switch Self.open(current.rawValue, name, flags: O_RDONLY) {
    case .success(let raw): fd = FileDescriptor(adopting: raw)
    case .failure(let code): throw refusal(display, .cannotOpen(code))
    }
    var status: FileStatus
    do {
      status = try fd.status()
      if status.permissions != UInt32(DirectoryDescriptor.createdDirectoryPermissions) {
        try fd.setPermissions(DirectoryDescriptor.createdDirectoryPermissions)
        status = try fd.status()
      }
    } catch {
      throw refusal(display, .cannotCreate(error.code))
    }
    if let problem = DirectoryTrust.problem(with: status) { throw refusal(display, problem) }
    current = fd
    currentStatus = status
    names.append(name)
  }

  /// The target of the symbolic link `name` in the current directory, if the current
  /// directory is one a link may be followed from.
  private func linkTarget(_ name: String) throws(DirectoryRefusal) -> String {
    let display = path(of: name)
    var info = stat()
    guard case .success = retryingInterrupts({ fstatat(current.rawValue, name, &info, AT_SYMLINK_NOFOLLOW) }),
      FileStatus(info).kind == .symbolicLink
    else { throw refusal(display, .notADirectory) }
    guard DirectoryTrust.isPrivate(currentStatus) else { throw refusal(display, .linkInSharedDirectory) }
    var buffer = [CChar](repeating: 0, count: Int(PATH_MAX))
    let count = buffer.withUnsafeMutableBufferPointer {
      readlinkat(current.rawValue, name, $0.baseAddress!, $0.count)
    }
    guard count >= 0 else { throw refusal(display, .cannotOpen(.current)) }
    guard count < buffer.count, count > 0 else { throw refusal(display, .cannotOpen(.nameTooLong)) }
    return String(decoding: buffer[0..<count].map { UInt8(bitPattern: $0) }, as: UTF8.self)
  }

  /// The directory reached, opened for reading so that it can be fsynced, or held by its
  /// O_PATH descriptor when this process may not read it.
  consuming func finish() throws(DirectoryRefusal) -> DirectoryDescriptor {
    let reached = currentPath
    switch Self.open(current.rawValue, ".", flags: O_RDONLY) {
    case .success(let raw):
      let readable = FileDescriptor(adopting: raw)
      let status: FileStatus
      do {
        status = try readable.status()
      } catch {
        throw refusal(reached, .cannotOpen(error.code))
      }
      guard status.device == currentStatus.device, status.inode == currentStatus.inode else {
        throw refusal(reached, .cannotOpen(.invalidArgument))
      }
      return DirectoryDescriptor(path: directory, descriptor: readable)
    case .failure(.accessDenied):
      return DirectoryDescriptor(path: directory, descriptor: current)
    case .failure(let code):
      throw refusal(reached, .cannotOpen(code))
    }
  }

  private static func open(_ directory: Int32, _ name: String, flags: Int32) -> Result<Int32, Errno> {
    retryingInterrupts { openat(directory, name, flags | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC) }
  }

  private static func openChecked(_ directoryFD: Int32, _ name: String, display: String, directory: String)
    throws(DirectoryRefusal) -> OpenedDirectory
  {
    switch open(directoryFD, name, flags: pathFlag) {
    case .success(let fd):
      return try checked(FileDescriptor(adopting: fd), display: display, directory: directory)
    case .failure(let code):
      throw DirectoryRefusal(directory: directory, offending: display, reason: .cannotOpen(code))
    }
  }

  private static func checked(_ fd: consuming FileDescriptor, display: String, directory: String)
    throws(DirectoryRefusal) -> OpenedDirectory
  {
    let status: FileStatus
    do {
      status = try fd.status()
    } catch {
      throw DirectoryRefusal(directory: directory, offending: display, reason: .cannotOpen(error.code))
    }
    if let problem = DirectoryTrust.problem(with: status) {
      throw DirectoryRefusal(directory: directory, offending: display, reason: problem)
    }
    return OpenedDirectory(descriptor: fd, status: status)
  }
}
