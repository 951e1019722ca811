import Glibc

/// The user and group databases (NSS), as control needs them: the control group's id, the
/// name of orientd's user for refusals, and a user's groups where the kernel does not tell a
/// peer's (Linux before 4.13). Lookups may be slow (NSS can ask a network service): the
/// daemon makes the first two once at start, and the last only on kernels without
/// SO_PEERGROUPS.
package enum AccountDatabase {
  /// The group `name` names: a group name or a numeric gid; nil when no such group exists.
  package static func groupID(_ name: String) -> UInt32? {
    if let record = getgrnam(name) { return record.pointee.gr_gid }
    if let number = UInt32(name), getgrgid(number) != nil { return number }
    return nil
  }

  /// The name of user `uid`; nil when the database has none.
  package static func userName(_ uid: UInt32) -> String? {
    getpwuid(uid).map { String(cString: $0.pointee.pw_name) }
  }

  /// The user's primary and supplementary groups in the group database; none when the user
  /// is not in it.
  package static func groups(of uid: UInt32) -> [UInt32] {
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
