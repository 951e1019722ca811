import Glibc

/// Decides which socket peers may run control commands.
///
/// Without a control group every peer may. With one, root, the daemon's own user and
/// members of the group (primary or supplementary, per the group database) may.
public struct ControlPermission: Sendable {
  private let ownUID: uid_t
  private let group: gid_t?

  /// Everyone may control.
  public static let everyone = ControlPermission(ownUID: geteuid(), group: nil)

  private init(ownUID: uid_t, group: gid_t?) {
    self.ownUID = ownUID
    self.group = group
  }

  /// Restricts control to `groupName` (a name or a numeric gid); nil when no such group exists.
  public init?(groupName: String) {
    if let record = getgrnam(groupName) {
      self.init(ownUID: geteuid(), group: record.pointee.gr_gid)
    } else if let number = UInt32(groupName), getgrgid(number) != nil {
      self.init(ownUID: geteuid(), group: number)
    } else {
      return nil
    }
  }

  /// Whether `peer` may lock, unlock, rotate and allow.
  public func allows(_ peer: PeerCredentials?) -> Bool {
    guard let group else { return true }
    guard let peer else { return false }
    if peer.uid == 0 || peer.uid == ownUID || peer.gid == group { return true }
    guard let user = getpwuid(peer.uid) else { return false }
    let primary = user.pointee.pw_gid
    if primary == group { return true }
    var count: Int32 = 64
    var groups = [gid_t](repeating: 0, count: Int(count))
    if getgrouplist(user.pointee.pw_name, primary, &groups, &count) < 0 {
      groups = [gid_t](repeating: 0, count: Int(count))
      guard getgrouplist(user.pointee.pw_name, primary, &groups, &count) >= 0 else { return false }
    }
    return groups.prefix(Int(count)).contains(group)
  }
}
