import OrientCore
import OrientSystem
import Synchronization

/// Keeps the lock and the allowed set on disk across restarts.
///
/// The state file's directory is opened once, when the store is made, and checked as
/// `DirectoryDescriptor.openTrusted` does; everything after is done relative to it and never
/// follows a symbolic link. Writes are atomic: a new temporary file with a name nobody can
/// guess is written and fsynced, then renamed over the state file and the directory fsynced,
/// so a crash leaves either the old or the new state.
///
/// Immutable after init: `save` may be called from any thread, and calls are serialized.
final class StateStore: Sendable {
  /// The state file's path.
  let path: String
  private let directory: DirectoryDescriptor
  private let name: String
  /// One save at a time: each writes its own temporary file, but the last rename must be
  /// the newest state.
  private let saving = Mutex(())

  /// The most a state file may hold; orientd writes three short lines.
  static let sizeLimit = 4096

  /// Opens (and makes, if missing) the state file's directory; nothing is read yet.
  ///
  /// A directory another user could change, or a path that names no file, is exit 78; a
  /// directory that cannot be made or opened is exit 73. The message names the state file.
  init(path: String) throws(Failure) {
    self.path = path
    name = try Self.checkName(of: path)
    do {
      directory = try DirectoryDescriptor.openTrusted(FileSystem.parent(of: path), creating: true)
    } catch {
      throw Failure(
        "refusing the state file \(path): \(error)", exitCode: error.isUnsafe ? .config : .cannotCreate)
    }
    removeLeftoverTemporaryFiles()
  }

  /// The file's name in its directory; exit 78 when the path names no file (`/var/lib/orientd/`).
  @discardableResult
  static func checkName(of path: String) throws(Failure) -> String {
    let name = String(path.split(separator: "/").last ?? "")
    guard !path.hasSuffix("/"), !name.isEmpty, name != ".", name != ".." else {
      throw Failure("state file \(path): the path names no file", exitCode: .config)
    }
    return name
  }

  /// Loads the state; a missing file gives nil. A corrupt one, or one that is not a small
  /// regular file of orientd's own (a link, a FIFO, a device), is a warning and nil.
  func load() -> PersistedState? {
    let bytes: [UInt8]
    do {
      bytes = try directory.readRegularFile(name, limit: Self.sizeLimit)
    } catch {
      if case .missing = error { return nil }
      Log.warning("ignoring the state file: \(error); using the defaults")
      return nil
    }
    do {
      return try PersistedState.parse(String(decoding: bytes, as: UTF8.self))
    } catch {
      Log.warning("ignoring corrupt state file \(path): \(error.message); using the defaults")
      return nil
    }
  }

  /// Saves the state atomically; every error names a path in the state file's directory.
  ///
  /// A symbolic link at the state file's name is replaced, never written through; anything
  /// else that is not a regular file (a FIFO, a device) is left in place and the save fails.
  func save(_ state: PersistedState) throws(SystemError) {
    try saving.withLock { (_: inout ()) throws(SystemError) in try write(state.fileText) }
  }

  private func write(_ text: String) throws(SystemError) {
    var temporary = ""
    let file = try createTemporaryFile(named: &temporary)
    let temporaryPath = directory.path(of: temporary)
    do throws(SystemError) {
      do {
        try file.writeAll(text)
        try file.sync()
      } catch {
        throw SystemError("\(error.operation) \(temporaryPath)", code: error.code)
      }
      file.close()
      if let existing = try directory.status(of: name), existing.kind != .regular,
        existing.kind != .symbolicLink
      {
        throw SystemError("not replacing \(path), \(existing.kind.name)", code: .permissionDenied)
      }
      try directory.rename(temporary, to: name)
    } catch {
      // Only tidying: the write's own error is what the caller needs, and a leftover file is
      // removed at the next start.
      try? directory.remove(temporary)
      throw error
    }
    // The rename is durable once the directory is; a failure here loses nothing already written.
    try? directory.sync()
  }

  /// The prefix of temporary names: hidden, and tied to the state file's name.
  private var temporaryPrefix: String { ".\(name).tmp-" }

  /// Creates a new temporary file next to the state file, under a random name: a name planted
  /// in advance (a link to another file) is never opened, only skipped.
  private func createTemporaryFile(named temporary: inout String) throws(SystemError) -> FileDescriptor {
    var generator = SystemRandomNumberGenerator()
    for _ in 0..<8 {
      temporary = temporaryPrefix + String(generator.next() as UInt64, radix: 36)
      do {
        return try directory.open(temporary, .writeOnly, options: [.create, .exclusive], permissions: 0o644)
      } catch  where error.code == .exists {
        continue
      }
    }
    throw SystemError("create a temporary file for \(path)", code: .exists)
  }

  /// Removes temporary files a crash left behind: regular files of orientd's own only. Each
  /// step is tidying: a file that cannot be listed, examined or removed is only left in place.
  private func removeLeftoverTemporaryFiles() {
    guard let names = try? directory.entries() else { return }
    for leftover in names where leftover.hasPrefix(temporaryPrefix) {
      guard let status = try? directory.status(of: leftover), status.kind == .regular,
        status.isOwnedByRootOrUs
      else { continue }
      try? directory.remove(leftover)
    }
  }
}
