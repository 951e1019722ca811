import OrientCore
import OrientSystem

/// Keeps the lock and the allowed set on disk across restarts.
///
/// Writes are atomic: a temporary file is written and fsynced, then renamed over the
/// old one and the directory fsynced, so a crash leaves either the old or the new state.
public final class StateStore: Sendable {
  /// The state file's path.
  public let path: String

  /// Creates a store for `path`; nothing is read or written yet.
  public init(path: String) { self.path = path }

  /// Loads the state; a missing file gives nil, a corrupt one a warning and nil.
  public func load() -> PersistedState? {
    let text: String
    do {
      text = try FileSystem.readText(path)
    } catch {
      if error.code != .noSuchFile { Log.warning("cannot read state file: \(error); using the defaults") }
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
    try FileSystem.makeDirectories(parentOf: path)
    let temporary = path + ".tmp"
    do throws(SystemError) {
      let file = try FileDescriptor.open(temporary, .writeOnly, options: [.create, .truncate])
      try file.writeAll(state.fileText)
      try file.sync()
      file.close()
      try FileSystem.rename(temporary, to: path)
    } catch {
      try? FileSystem.remove(temporary)
      throw error
    }
    // The rename is durable once the directory is; a failure here loses nothing already written.
    if let directory = try? FileDescriptor.open(FileSystem.parent(of: path), .readOnly, options: .directory) {
      try? directory.sync()
    }
  }
}
