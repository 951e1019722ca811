import Glibc

/// The name of another process, as the kernel shows it in /proc/PID/comm.
public enum ProcessName {
  /// The process's command name (at most 15 bytes, as the kernel keeps it), or nil when it is
  /// gone or this process may not see it.
  public static func of(_ pid: UInt32) -> String? {
    guard pid > 0, let file = try? FileDescriptor.open("/proc/\(pid)/comm", .readOnly),
      let bytes = try? file.readAll(limit: 64)
    else { return nil }
    let name = String(decoding: bytes, as: UTF8.self)
    let trimmed = name.hasSuffix("\n") ? String(name.dropLast()) : name
    return trimmed.isEmpty ? nil : trimmed
  }
}
