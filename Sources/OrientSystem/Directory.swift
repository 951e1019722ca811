import Glibc

/// The names in a directory, without `.` and `..`; nil if it cannot be read.
public func directoryEntries(_ path: String) -> [String]? {
  guard let handle = opendir(path) else { return nil }
  defer { closedir(handle) }
  var names: [String] = []
  while let entry = readdir(handle) {
    let name = withUnsafeBytes(of: entry.pointee.d_name) {
      String(decoding: $0.prefix(while: { $0 != 0 }), as: UTF8.self)
    }
    if name != "." && name != ".." { names.append(name) }
  }
  return names
}
