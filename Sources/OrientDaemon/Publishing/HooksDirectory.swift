import OrientSystem

/// What is wrong with `--hooks-dir`, found once at start and at each reload, so that `info`
/// never has to stat a path (perhaps on a slow network file system) on the loop for every
/// client that asks.
///
/// orientd runs as root every executable in the directory: a directory another user may
/// write, or one on a path another user owns, would let that user run anything as root. So it
/// must be as safe as the state file's directory (root's or orientd's user's on the whole way,
/// `DirectoryDescriptor.openTrusted`), and more: nobody else may add a file to it even where
/// a sticky bit keeps them from removing orientd's.
enum HooksDirectory {
  /// Why `directory` cannot hold hooks, worded to follow "hooks-dir DIR is"; nil when it can.
  static func problem(_ directory: String) -> String? {
    let status: FileStatus
    do {
      status = try FileSystem.status(of: directory)
    } catch  where error.code == .noSuchFile {
      return "missing"
    } catch {
      return "not examinable (\(error.code))"
    }
    guard status.kind == .directory else { return "not a directory" }
    let opened: DirectoryDescriptor
    do {
      opened = try DirectoryDescriptor.openTrusted(directory, creating: false)
    } catch {
      return "not safe (\(error))"
    }
    let own: FileStatus
    do {
      own = try opened.status()
    } catch {
      return "not readable (\(error.code))"
    }
    guard own.permissions & 0o022 == 0 else {
      return
        "writable by other users (mode \(String(own.permissions, radix: 8))): any of them could add a hook"
    }
    return nil
  }
}
