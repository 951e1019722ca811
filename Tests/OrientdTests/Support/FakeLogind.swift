import Foundation
import Testing

/// What logind would tell of the seats, for one test's orientd only: a directory in the scratch
/// directory that orientd sees as /run/systemd, in a mount namespace of its own, holding the
/// files sd-login reads (systemd's src/libsystemd/sd-login/sd-login.c): `system/`, whose
/// presence is `sd_booted`; `seats/`, one file per seat, whose `ACTIVE_UID=` names the user of
/// the seat's active session (`sd_get_seats`, `sd_seat_get_active`); and `users/`. The host's
/// logind, if any, is neither read nor touched.
final class FakeLogind {
  /// The directory bound over /run/systemd.
  let directory: String

  /// A machine booted with systemd and logind, `activeUID`'s session in the foreground of
  /// seat0 (nil: the seat shows a greeter); with `booted` false, a machine without systemd.
  init(activeUID: UInt32?, booted: Bool = true) throws {
    try #require(getuid() == 0, "a fake logind needs a mount namespace: this test must run as root")
    try #require(FileManager.default.fileExists(atPath: "/run/systemd"), "no /run/systemd to mount over")
    directory = try Scratch.current().makeDirectory("run-systemd")
    chmod(directory, 0o755)
    for name in (booted ? ["system", "seats", "users", "sessions"] : ["seats", "users", "sessions"]) {
      try FileManager.default.createDirectory(
        atPath: directory + "/" + name, withIntermediateDirectories: false,
        attributes: [.posixPermissions: 0o755])
    }
    try setActive(activeUID)
  }

  /// Switches seat0 to `uid`'s session (nil: a greeter), as logind does: it writes a new file
  /// and renames it over the seat's, so a reader sees the old or the new one whole.
  func setActive(_ uid: UInt32?) throws {
    var text = "# This is private data. Do not parse.\nIS_SEAT0=1\nCAN_MULTI_SESSION=1\n"
    if let uid { text += "ACTIVE=c\(uid)\nACTIVE_UID=\(uid)\nSESSIONS=c\(uid)\nUIDS=\(uid)\n" }
    let seat = directory + "/seats/seat0"
    try writeConfigFile(text, to: seat + ".new")
    try #require(rename(seat + ".new", seat) == 0, "renaming the seat file failed: errno \(errno)")
  }

  /// Runs what follows with this directory as /run/systemd, in a private mount namespace.
  var launcher: [String] {
    get throws {
      let unshare = try #require(TestPaths.which("unshare"), "unshare is missing (util-linux)")
      return [
        unshare, "--mount", "--propagation", "private", "/bin/sh", "-c",
        #"mount --bind "$0" /run/systemd && exec "$@""#, directory,
      ]
    }
  }
}

/// orientd open to other users (as `servedDaemonOpenToOthers`) with a fake logind that puts
/// `seatUser` (nobody by default) at the seat, so that user may control as the shipped setup
/// lets the desktop's user. `launcher` runs inside the namespace, before orientd.
func servedDaemonWithSeatUser(
  _ seatUser: UInt32 = Unprivileged.uid, extra: [String] = [], statePath: String? = nil,
  launcher: [String] = []
) throws -> (daemon: ServedDaemon, logind: FakeLogind) {
  let logind = try FakeLogind(activeUID: seatUser)
  let daemon = try servedDaemonOpenToOthers(
    extra: extra, statePath: statePath, launcher: try logind.launcher + launcher)
  return (daemon, logind)
}
