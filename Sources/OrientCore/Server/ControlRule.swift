/// Who may run control commands (`lock`, `unlock`, `rotate`, `allow`, `mode`) and see `info`'s
/// hooks and paths: root, orientd's own user, members of the control group when one is
/// configured, and the user of a session in the foreground of a seat, as logind tells it.
///
/// The seat's user is who sits at the screen: a desktop user expects to control their own
/// screen, and other local users (services, remote logins, `nobody`) not to. The control group
/// adds to that; it takes nothing from the seat's user. A remote login (ssh) is not at a seat,
/// so it is not the seat's user, even though logind counts a user with only such a session as
/// "active" (`sd_uid_get_state`): that is why seats are asked, not the user's state.
///
/// Without logind (not booted with systemd, or logind not running) nobody is known to sit at
/// the screen, and control stays with root, orientd's user and the control group: the safe
/// choice, as guessing a seat's user could hand control to anyone; the refusal says to set
/// `control-group`.
///
/// Pure: the server gathers the facts (the peer's credentials and groups as the kernel told
/// them, and logind's answer at the moment of the command) and this decides.
package struct ControlRule: Sendable {
  /// A peer as the kernel told it when it connected.
  package struct Peer: Sendable, Equatable {
    package var uid: UInt32
    /// The effective group.
    package var gid: UInt32
    /// The supplementary groups.
    package var groups: [UInt32]

    package init(uid: UInt32, gid: UInt32, groups: [UInt32]) {
      self.uid = uid
      self.gid = gid
      self.groups = groups
    }
  }

  /// What logind says of the seats at the moment of asking.
  package enum Seats: Sendable, Equatable {
    /// No logind: not booted with systemd, or logind keeps no seats.
    case noLogind
    /// The users whose session is in the foreground of a seat (none when every seat is at a
    /// greeter or empty).
    case activeUsers([UInt32])
  }

  /// The daemon's own (effective) user.
  package let ownUID: UInt32
  /// Its name, for the refusal; nil when the user database has none.
  package let ownUserName: String?
  /// The control group's id and the name it was configured by; nil when none is.
  package let group: (id: UInt32, name: String)?

  package init(ownUID: UInt32, ownUserName: String?, group: (id: UInt32, name: String)?) {
    self.ownUID = ownUID
    self.ownUserName = ownUserName
    self.group = group
  }

  /// Whether `peer` may control whoever sits at the seats: root, orientd's user, a member of
  /// the control group. When false, the seats decide (`allows(_:seats:)`), and only then need
  /// logind be asked.
  package func allowsAtAnySeat(_ peer: Peer) -> Bool {
    if peer.uid == 0 || peer.uid == ownUID { return true }
    guard let group else { return false }
    return peer.gid == group.id || peer.groups.contains(group.id)
  }

  /// Whether `peer` may control, with logind's answer `seats`. A peer the kernel told nothing
  /// of (nil) may not.
  package func allows(_ peer: Peer?, seats: Seats) -> Bool {
    guard let peer else { return false }
    if allowsAtAnySeat(peer) { return true }
    guard case .activeUsers(let users) = seats else { return false }
    return users.contains(peer.uid)
  }

  /// Who may control, for the error a refused peer reads; it names the group to join, and
  /// says when there is no logind to tell who sits at the screen.
  package func requirement(seats: Seats) -> String {
    let user = ownUserName ?? "uid \(ownUID)"
    var who = "root, orientd's user (\(user))"
    if let group { who += ", members of group '\(group.name)' (control-group)" }
    switch seats {
    case .activeUsers:
      return "control needs \(who) or the user of the active session at a seat (logind)"
    case .noLogind:
      let advice = group.map { "join group '\($0.name)'" } ?? "set control-group"
      return "control needs \(who) or the user of the active session at a seat, and without logind "
        + "no session is known to be at a seat: \(advice) to let other users control"
    }
  }
}
