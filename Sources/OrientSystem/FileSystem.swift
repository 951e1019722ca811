import Glibc

/// Operations on paths: whole-file reads, status, links and directories.
package enum FileSystem {
  /// Reads a whole file as UTF-8 text (invalid bytes become U+FFFD and then fail parsing);
  /// a file over `limit` bytes is an error.
  package static func readText(_ path: String, limit: Int = 1 << 20) throws(SystemError) -> String {
    let file = try FileDescriptor.open(path, .readOnly)
    do {
      return String(decoding: try file.readAll(limit: limit), as: UTF8.self)
    } catch {
      throw SystemError("read \(path)", code: error.code)
    }
  }

  /// The status of `path`, or of a symbolic link itself when `followingLinks` is false.
  package static func status(of path: String, followingLinks: Bool = true) throws(SystemError) -> FileStatus {
    var info = stat()
    _ = try systemCall("stat \(path)") { followingLinks ? stat(path, &info) : lstat(path, &info) }
    return FileStatus(info)
  }

  /// Whether something exists at `path`.
  package static func exists(_ path: String) -> Bool { access(path, F_OK) == 0 }

  /// Whether `path` is a regular file this process may execute.
  package static func isExecutableFile(_ path: String) -> Bool {
    // Whatever keeps it from being examined keeps it from being run: the answer is false.
    guard let status = try? status(of: path), status.kind == .regular else { return false }
    return access(path, X_OK) == 0
  }

  /// Removes the file at `path`.
  package static func remove(_ path: String) throws(SystemError) {
    _ = try systemCall("unlink \(path)") { unlink(path) }
  }

  /// Renames `source` over `destination` atomically.
  package static func rename(_ source: String, to destination: String) throws(SystemError) {
    _ = try systemCall("rename \(source) to \(destination)") { Glibc.rename(source, destination) }
  }

  /// The names in a directory, without `.` and `..`, in no particular order.
  package static func entries(of directory: String) throws(SystemError) -> [String] {
    guard let handle = opendir(directory) else { throw SystemError("opendir \(directory)", code: .current) }
    defer { closedir(handle) }
    return names(in: handle)
  }

  /// The names an open directory stream lists, without `.` and `..`.
  static func names(in handle: OpaquePointer) -> [String] {
    var names: [String] = []
    while let entry = readdir(handle) {
      let name = withUnsafeBytes(of: entry.pointee.d_name) {
        String(decoding: $0.prefix(while: { $0 != 0 }), as: UTF8.self)
      }
      if name != "." && name != ".." { names.append(name) }
    }
    return names
  }

  /// The current working directory.
  static func currentDirectory() throws(SystemError) -> String {
    guard let path = getcwd(nil, 0) else { throw SystemError("getcwd", code: .current) }
    defer { free(path) }
    return String(cString: path)
  }

  /// The folder part of `path`: `/var/lib/orientd` for `/var/lib/orientd/state`, `.` for `state`.
  package static func parent(of path: String) -> String {
    guard let slash = path.lastIndex(of: "/") else { return "." }
    let parent = String(path[..<slash])
    return parent.isEmpty ? "/" : parent
  }
}

extension FileSystem {
  /// `path` with every symbolic link resolved.
  package static func resolvedPath(_ path: String) throws(SystemError) -> String {
    guard let resolved = realpath(path, nil) else { throw SystemError("realpath \(path)", code: .current) }
    defer { free(resolved) }
    return String(cString: resolved)
  }
}
