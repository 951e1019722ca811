import Glibc

/// The name of another process, as the kernel shows it in /proc/PID/comm, whole.
package enum ProcessName {
  /// The process's command name; when the kernel cut it to its 15 bytes (`iio-sensor-prox`),
  /// the file name of the program it ran that the cut name begins (`iio-sensor-proxy`). Nil
  /// when it is gone or this process may not see it.
  package static func of(_ pid: UInt32) -> String? {
    guard pid > 0, let bytes = read("/proc/\(pid)/comm", limit: 64) else { return nil }
    let text = String(decoding: bytes, as: UTF8.self)
    let comm = text.hasSuffix("\n") ? String(text.dropLast()) : text
    guard !comm.isEmpty else { return nil }
    // Only a cut name is completed, and only by a program name it begins: a script's comm is
    // its own name where its first argument is the interpreter's.
    guard comm.utf8.count == maximumLength, let arguments = read("/proc/\(pid)/cmdline", limit: 4096) else {
      return comm
    }
    let program = arguments.prefix { $0 != 0 }
    guard let last = program.split(separator: UInt8(ascii: "/")).last else { return comm }
    let name = String(decoding: last, as: UTF8.self)
    return name.hasPrefix(comm) ? name : comm
  }

  /// The most bytes the kernel keeps of a command name (TASK_COMM_LEN less its NUL).
  static let maximumLength = 15

  /// The file's bytes, or nil: a process gone or hidden has no name to show, whatever the error.
  private static func read(_ path: String, limit: Int) -> [UInt8]? {
    guard let file = try? FileDescriptor.open(path, .readOnly) else { return nil }
    return try? file.readAll(limit: limit)
  }
}
