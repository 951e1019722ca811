import Glibc
import OrientCore
import OrientSystem

/// Keeps the lock and the allowed set on disk across restarts.
///
/// Writes are atomic: a temporary file is written and fsynced, then renamed over the
/// old one and the directory fsynced, so a crash leaves either the old or the new state.
public final class StateStore {
  /// The state file's path.
  public let path: String

  /// Creates a store for `path`; nothing is read or written yet.
  public init(path: String) { self.path = path }

  /// Loads the state; a missing file gives nil, a corrupt one a warning and nil.
  public func load() -> PersistedState? {
    let text: String
    do {
      text = try readTextFile(path)
    } catch {
      if error.code != ENOENT { Log.warning("cannot read state file: \(error); using the defaults") }
      return nil
    }
    do {
      return try PersistedState.parse(text)
    } catch {
      Log.warning("ignoring corrupt state file \(path): \(error.message); using the defaults")
      return nil
    }
  }

  /// Saves the state atomically.
  public func save(_ state: PersistedState) throws(SystemError) {
    try makeDirectories(parentOf: path)
    let temporary = path + ".tmp"
    let file = try FileDescriptor.open(temporary, O_WRONLY | O_CREAT | O_TRUNC, mode: 0o644)
    if case .failure(let error) = file.writeAll(state.fileText) {
      file.close()
      unlink(temporary)
      throw SystemError("write \(temporary)", code: error.code)
    }
    if fsync(file.rawValue) != 0 {
      let error = SystemError("fsync \(temporary)")
      file.close()
      unlink(temporary)
      throw error
    }
    file.close()
    guard rename(temporary, path) == 0 else {
      let error = SystemError("rename \(temporary) to \(path)")
      unlink(temporary)
      throw error
    }
    let directory = path.contains("/") ? String(path[..<path.lastIndex(of: "/")!]) : "."
    if let handle = try? FileDescriptor.open(directory.isEmpty ? "/" : directory, O_RDONLY | O_DIRECTORY) {
      _ = fsync(handle.rawValue)
      handle.close()
    }
  }
}
