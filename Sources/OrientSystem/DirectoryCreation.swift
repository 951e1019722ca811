import Glibc

extension FileSystem {
  /// Creates the missing directories above `path` with mode 0755, like `mkdir -p`.
  public static func makeDirectories(parentOf path: String) throws(SystemError) {
    var components = path.split(separator: "/", omittingEmptySubsequences: true).dropLast()
    var current = path.hasPrefix("/") ? "" : "."
    while let next = components.first {
      components = components.dropFirst()
      current += "/" + next
      switch retryingInterrupts({ mkdir(current, 0o755) }) {
      case .success:
        // The umask may have taken bits away.
        _ = chmod(current, 0o755)
      case .failure(.exists):
        continue
      case .failure(let code):
        throw SystemError("mkdir \(current)", code: code)
      }
    }
  }
}

extension FileSystem {
  /// Creates a new directory, mode 0700, named `prefix` plus six random characters.
  public static func makeTemporaryDirectory(prefix: String) throws(SystemError) -> String {
    var template = Array((prefix + "XXXXXX").utf8CString)
    guard let made = mkdtemp(&template) else { throw SystemError("mkdtemp \(prefix)", code: .current) }
    return String(cString: made)
  }

  /// Removes `path` and, if it is a directory, everything in it; symbolic links are removed,
  /// never followed.
  public static func removeTree(_ path: String) throws(SystemError) {
    let status = try status(of: path, followingLinks: false)
    if status.kind == .directory {
      for name in try entries(of: path) { try removeTree(path + "/" + name) }
      _ = try systemCall("rmdir \(path)") { rmdir(path) }
    } else {
      try remove(path)
    }
  }
}
