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

  /// `orientd-bench attack NAME ARGUMENTS...` as nobody.
  static func attack(_ name: String, _ arguments: [String], uid: UInt32 = uid) throws -> [String] {
    try command([TestPaths.bench, "attack", name] + arguments, uid: uid)
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
