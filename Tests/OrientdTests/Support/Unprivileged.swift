import Foundation
import Testing

/// Runs a test's attacker as an unprivileged user, as a hostile local user would be:
/// nobody, group nogroup, no supplementary groups.
enum Unprivileged {
  static let uid: UInt32 = 65534
  static let gid: UInt32 = 65534

  /// `arguments` prefixed so that they run as nobody:nogroup, or as another unprivileged
  /// `uid` (one with no account is fine: the kernel only needs the number).
  static func command(
    _ arguments: [String], uid: UInt32 = uid, sourceLocation: SourceLocation = #_sourceLocation
  ) throws -> [String] {
    try #require(
      getuid() == 0, "this test switches to nobody and must run as root", sourceLocation: sourceLocation)
    let setpriv = try #require(
      TestPaths.which("setpriv"), "setpriv is missing (util-linux)", sourceLocation: sourceLocation)
    return [setpriv, "--reuid=\(uid)", "--regid=\(gid)", "--clear-groups"] + arguments
  }

  /// `orientd-testbench attack NAME ARGUMENTS...` as nobody.
  static func attack(_ name: String, _ arguments: [String], uid: UInt32 = uid) throws -> [String] {
    try command([TestPaths.testbench, "attack", name] + arguments, uid: uid)
  }

  /// Lets other users into the scratch directory (not write to it), so nobody can reach
  /// a socket there; the socket's own mode still decides who may connect.
  static func openScratch(_ scratch: Scratch) {
    chmod(scratch.path, 0o755)
  }

  /// A new directory in the scratch directory that other users may enter (not write).
  static func openDirectory(in scratch: Scratch) throws -> String {
    openScratch(scratch)
    let directory = try scratch.makeDirectory("open")
    chmod(directory, 0o755)
    return directory
  }
}

/// The value of a `name value` figure line an attack printed.
func attackFigure(_ name: String, in output: String) -> String? {
  for line in output.split(separator: "\n") where line.hasPrefix(name + " ") {
    return String(line.dropFirst(name.count + 1))
  }
  return nil
}

/// orientd serving from a directory of its own that other users may enter (not write), so
/// attackers running as nobody reach its socket.
func servedDaemonOpenToOthers(
  extra: [String] = [], statePath: String? = nil, launcher: [String] = []
) throws -> ServedDaemon {
  let directory = try Unprivileged.openDirectory(in: try Scratch.current())
  return try ServedDaemon(extra: extra, directory: directory, statePath: statePath, launcher: launcher)
}

/// Follows the system calls named in `calls` (strace's `trace=` list) in a running
/// process and all its threads, into a log in the scratch directory; stop it to read the log.
final class SystemCallTrace {
  let log: String
  private let process: TestProcess

  init(pid: pid_t, calls: String) throws {
    let strace = try #require(TestPaths.which("strace"), "strace is missing: apt-get install strace")
    log = try Scratch.current().makeDirectory("strace") + "/log"
    process = try TestProcess([strace, "-f", "-p", "\(pid)", "-e", "trace=\(calls)", "-o", log])
    // strace says so once per thread it attached to: the main thread at least.
    try #require(process.waitFor("attached", inStderr: true), "strace did not attach: \(process.stderr)")
  }

  /// Detaches and returns the log's lines.
  func stop() -> [String] {
    process.signal(SIGTERM)
    _ = process.waitForExit()
    return fileText(log).split(separator: "\n").map(String.init)
  }
}

/// Counts the files moved into a directory under one name, through inotify: unlike a
/// system-call trace, watching costs the process that renames nothing, so it is as fast
/// under load as it would be unwatched. The kernel folds an event into the one before it
/// when they are the same, so two renames onto one name in a row would count once; the
/// moved-from events between them (each with its own name) keep them apart.
final class RenameCounter {
  private let descriptor: Int32
  private let name: String

  /// Starts counting renames onto `directory`/`name`.
  init(directory: String, name: String) throws {
    descriptor = inotify_init1(Int32(IN_NONBLOCK | IN_CLOEXEC))
    try #require(descriptor >= 0, "inotify_init1 failed: errno \(errno)")
    self.name = name
    try #require(
      inotify_add_watch(descriptor, directory, UInt32(IN_MOVED_TO | IN_MOVED_FROM)) >= 0,
      "inotify_add_watch failed")
  }

  deinit { close(descriptor) }

  /// The renames so far (events queue in the kernel until read, up to its limit of 16384).
  func count() throws -> Int {
    var total = 0
    var buffer = [UInt8](repeating: 0, count: 65536)
    while true {
      let count = buffer.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
      if count < 0, errno == EAGAIN { return total }
      try #require(count > 0, "reading inotify events failed: errno \(errno)")
      var offset = 0
      while offset < count {
        let (mask, length) = buffer.withUnsafeBytes { bytes in
          let event = bytes.loadUnaligned(fromByteOffset: offset, as: inotify_event.self)
          return (event.mask, Int(event.len))
        }
        try #require(mask & UInt32(IN_Q_OVERFLOW) == 0, "inotify's queue overflowed")
        let nameStart = offset + MemoryLayout<inotify_event>.size
        let eventName = String(
          decoding: buffer[nameStart..<(nameStart + length)].prefix { $0 != 0 }, as: UTF8.self)
        if mask & UInt32(IN_MOVED_TO) != 0, eventName == name { total += 1 }
        offset = nameStart + length
      }
    }
  }
}
