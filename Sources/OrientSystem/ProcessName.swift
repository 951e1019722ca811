import Glibc

/// The name of another process: its program's file name, as `ps -o args` starts with it.
public enum ProcessName {
  /// The file name of the program in the process's first argument (`iio-sensor-proxy` from
  /// `/usr/libexec/iio-sensor-proxy`), else the command name the kernel keeps (at most 15
  /// bytes: `iio-sensor-prox`), or nil when it is gone or this process may not see it.
  public static func of(_ pid: UInt32) -> String? {
    guard pid > 0 else { return nil }
    if let arguments = read("/proc/\(pid)/cmdline", limit: 4096) {
      let program = arguments.prefix { $0 != 0 }
      let name = program.split(separator: UInt8(ascii: "/")).last.map { String(decoding: $0, as: UTF8.self) }
      if let name, !name.isEmpty { return name }
    }
    guard let bytes = read("/proc/\(pid)/comm", limit: 64) else { return nil }
    let name = String(decoding: bytes, as: UTF8.self)
    let trimmed = name.hasSuffix("\n") ? String(name.dropLast()) : name
    return trimmed.isEmpty ? nil : trimmed
  }

  private static func read(_ path: String, limit: Int) -> [UInt8]? {
    guard let file = try? FileDescriptor.open(path, .readOnly) else { return nil }
    return try? file.readAll(limit: limit)
  }
}
