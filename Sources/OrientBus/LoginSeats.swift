import CSystemd
import Glibc
import OrientSystem

/// Who sits at the machine's seats, as logind tells it through libsystemd's sd-login: the
/// facts `ControlRule` decides control and `Admission` keeps slots with.
///
/// Asked at the moment of each question, never remembered, so a switch of user at a seat
/// takes effect at the next command. sd-login asks no daemon: it reads the small files logind
/// keeps under /run/systemd (a tmpfs), the seats directory and one file per seat, so an
/// answer costs a few system calls on the event loop and never waits on another process.
package enum LoginSeats {
  /// The users whose session is the active one of a seat (none when every seat shows a
  /// greeter or is empty); nil without logind: not booted with systemd (`sd_booted`), or no
  /// seats directory (logind not running).
  package static func activeUsers() -> [UInt32]? {
    guard sd_booted() > 0, FileSystem.exists("/run/systemd/seats") else { return nil }
    var names: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?
    let count = sd_get_seats(&names)
    defer { freeStrings(names) }
    guard count > 0, let names else { return [] }
    var users: [UInt32] = []
    for index in 0..<Int(count) {
      guard let seat = names[index] else { continue }
      var uid: uid_t = 0
      // A seat with no active session (a greeter, nobody logged in) tells no user (ENODATA);
      // one whose file logind is replacing this instant is skipped, as if empty.
      if sd_seat_get_active(seat, nil, &uid) >= 0 { users.append(uid) }
    }
    return users
  }

  /// Frees a NULL-terminated array of strings sd-login allocated.
  private static func freeStrings(_ strings: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) {
    guard let strings else { return }
    var index = 0
    while let string = strings[index] {
      free(string)
      index += 1
    }
    free(strings)
  }
}
