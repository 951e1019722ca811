import Foundation
import Testing

/// Runs a test's attacker as an unprivileged user, as a hostile local user would be:
/// nobody, group nogroup, no supplementary groups.
enum Unprivileged {
  static let uid: UInt32 = 65534
  static let gid: UInt32 = 65534

  /// `arguments` prefixed so that they run as nobody:nogroup.
  static func command(_ arguments: [String], sourceLocation: SourceLocation = #_sourceLocation) throws
    -> [String]
  {
    try #require(
      getuid() == 0, "this test switches to nobody and must run as root", sourceLocation: sourceLocation)
    let setpriv = try #require(
      TestPaths.which("setpriv"), "setpriv is missing (util-linux)", sourceLocation: sourceLocation)
    return [setpriv, "--reuid=\(uid)", "--regid=\(gid)", "--clear-groups"] + arguments
  }

  /// `orientd-bench attack NAME ARGUMENTS...` as nobody.
  static func attack(_ name: String, _ arguments: [String]) throws -> [String] {
    try command([TestPaths.bench, "attack", name] + arguments)
  }

  /// Lets other users into the scratch directory (not write to it), so nobody can reach
  /// a socket there; the socket's own mode still decides who may connect.
  static func openScratch(_ scratch: Scratch) {
    chmod(scratch.path, 0o755)
  }
}
