import Glibc

extension FileSystem {
  /// Creates a new directory, mode 0700, named `prefix` plus six random characters.
  package static func makeTemporaryDirectory(prefix: String) throws(SystemError) -> String {
    var template = Array((prefix + "XXXXXX").utf8CString)
    guard let made = mkdtemp(&template) else { throw SystemError("mkdtemp \(prefix)", code: .current) }
    return String(cString: made)
  }

  /// Removes `path` and, if it is a directory, everything in it; symbolic links are removed,
  /// never followed.
  package static func removeTree(_ path: String) throws(SystemError) {
    let status = try status(of: path, followingLinks: false)
    if status.kind == .directory {
      for name in try entries(of: path) { try removeTree(path + "/" + name) }
      _ = try systemCall("rmdir \(path)") { rmdir(path) }
    } else {
      try remove(path)
    }
  }
}
