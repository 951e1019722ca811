import Foundation
import Testing

/// `sleep` under a path in the scratch directory, for hooks that hang: the processes they
/// leave behind name the scratch directory, so `processes(mentioning:)` finds them and no
/// other test's (or person's) `sleep` is ever mistaken for them.
func scratchSleeper() throws -> String {
  let path = try Scratch.current().path("sleeper")
  if !FileManager.default.fileExists(atPath: path) {
    try FileManager.default.createSymbolicLink(atPath: path, withDestinationPath: "/bin/sleep")
  }
  return path
}

/// A FIFO a hook waits at (`read go < GATE`) until the test lets it through, so a hook run
/// lasts exactly as long as the test needs, however slow the machine.
struct HookGate {
  let path: String

  init() throws {
    path = try Scratch.current().makeDirectory("gate") + "/gate"
    guard mkfifo(path, 0o600) == 0 else { throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO) }
  }

  /// Shell that waits at the gate.
  var wait: String { "read go < \(path)" }

  /// Waits until a hook waits at the gate, and lets it through. False if none came.
  func letOneThrough(timeout: Double = patience) -> Bool {
    var fd: Int32 = -1
    // Without a reader a non-blocking open for writing fails (ENXIO): no hook is waiting yet.
    guard
      waitUntil(
        timeout: timeout,
        {
          fd = open(path, O_WRONLY | O_NONBLOCK | O_CLOEXEC); return fd >= 0
        })
    else { return false }
    defer { close(fd) }
    return Glibc.write(fd, "go\n", 3) == 3
  }
}
