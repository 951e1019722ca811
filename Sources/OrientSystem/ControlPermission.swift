import Glibc

/// Decides which socket peers may run control commands.
///
/// Without a control group every peer may. With one, root, the daemon's own user and members
/// of the group may. Membership is what the peer's process had when it connected: its
/// effective group or one of its supplementary groups, as the kernel tells them
/// (SO_PEERGROUPS). A user listed in the group database but running without the group
/// (`setpriv --clear-groups`, a sandboxed service) is not a member; a process given the
/// group (`setpriv --groups`, `sg`) is. Only where the kernel does not tell the peer's groups
/// (Linux before 4.13) is the group database asked instead.
package struct ControlPermission: Sendable {
  private let ownUID: uid_t
  private let group: gid_t?
  /// Who may control, for the error a refused peer gets: it names the group to join. Worked
  /// out once here, as the user database may be slow (NSS) and refusals come on the event loop.
  package let requirement: String

  /// Everyone may control.
  package static let everyone = ControlPermission(ownUID: geteuid(), group: nil, groupName: nil)

  private init(ownUID: uid_t, group: gid_t?, groupName: String?) {
    self.ownUID = ownUID
    self.group = group
    if let groupName {
      let userName = getpwuid(ownUID).map { String(cString: $0.pointee.pw_name) } ?? "uid \(ownUID)"
      requirement =
        "control needs root, orientd's user (\(userName)) or membership of group '\(groupName)' (control-group)"
    } else {
      requirement = "no control group is configured, so every peer may control"
    }
  }

  /// Restricts control to `groupName` (a name or a numeric gid); nil when no such group exists.
  package init?(groupName: String) {
    guard let group = Self.groupID(groupName) else { return nil }
    self.init(ownUID: geteuid(), group: group, groupName: groupName)
  }

  /// Whether `groupName` (a name or a numeric gid) names a group: the check a config file is
  /// given, without the user lookup that building a permission makes.
  package static func groupExists(_ groupName: String) -> Bool { groupID(groupName) != nil }

  private static func groupID(_ groupName: String) -> gid_t? {
    if let record = getgrnam(groupName) { return record.pointee.gr_gid }
    if let number = UInt32(groupName), getgrgid(number) != nil { return number }
    return nil
  }

  /// Whether the peer at the other end of `socket`, with credentials `peer`, may lock,
  /// unlock, rotate and allow. A peer whose groups cannot be read may not.
  package func allows(_ peer: PeerCredentials?, on socket: borrowing FileDescriptor) -> Bool {
    guard group != nil else { return true }
    do {
      return allows(peer, supplementaryGroups: try socket.peerGroups())
    } catch {
      return false
    }
  }

  /// Whether a peer with credentials `peer` and `supplementaryGroups` may control; with nil
  /// groups (the kernel does not tell them), the group database decides.
  package func allows(_ peer: PeerCredentials?, supplementaryGroups: [UInt32]?) -> Bool {
    guard let group else { return true }
    guard let peer else { return false }
    if peer.uid == 0 || peer.uid == ownUID || peer.gid == group { return true }
    if let supplementaryGroups { return supplementaryGroups.contains(group) }
    return Self.databaseGroups(of: peer.uid).contains(group)
  }

  /// The user's primary and supplementary groups in the group database.
  private static func databaseGroups(of uid: uid_t) -> [gid_t] {
    guard let user = getpwuid(uid) else { return [] }
    let primary = user.pointee.pw_gid
    var count: Int32 = 64
    var groups = [gid_t](repeating: 0, count: Int(count))
    if getgrouplist(user.pointee.pw_name, primary, &groups, &count) < 0 {
      groups = [gid_t](repeating: 0, count: Int(count))
      guard getgrouplist(user.pointee.pw_name, primary, &groups, &count) >= 0 else { return [primary] }
    }
    return Array(groups.prefix(Int(count)))
  }
}
