import OrientBus
import OrientCore
import OrientSystem

/// Gathers what `ControlRule` decides control with: the peer's credentials and groups as the
/// kernel told them when it connected, and logind's seats at the moment of the question, so
/// that a switch of user at a seat takes effect at the next command. The socket server asks
/// it for each control command and each `info`, and `ClientAcceptor` when a newcomer would
/// otherwise be refused a slot.
struct ControlAccess {
  /// Who may control.
  let rule: ControlRule

  /// The rule for `groupName` (`control-group`, a name or a numeric gid; nil: none), with
  /// orientd's user looked up once here, as the user database may be slow (NSS) and
  /// refusals come on the event loop. Throws when no such group exists.
  init(groupName: String?) throws(Failure) {
    var group: (id: UInt32, name: String)?
    if let groupName {
      guard let id = AccountDatabase.groupID(groupName) else {
        throw Failure("--control-group: no group named '\(groupName)'", exitCode: .usage)
      }
      group = (id, groupName)
    }
    let own = ProcessCredentials.effectiveUserID
    rule = ControlRule(ownUID: own, ownUserName: AccountDatabase.userName(own), group: group)
  }

  /// The seats as logind tells them now (see `LoginSeats` for the cost).
  static func seatsNow() -> ControlRule.Seats {
    LoginSeats.activeUsers().map { .activeUsers($0) } ?? .noLogind
  }

  /// The peer of `socket`, with credentials `credentials`, as the rule sees it; nil when the
  /// kernel did not tell who it is. Its supplementary groups are read only when a control
  /// group is configured: from the kernel (SO_PEERGROUPS), else, before Linux 4.13, from the
  /// group database. Groups that cannot be read count as none, so such a peer is a member
  /// only by its effective group.
  func peer(_ credentials: PeerCredentials?, on socket: borrowing FileDescriptor) -> ControlRule.Peer? {
    guard let credentials else { return nil }
    var groups: [UInt32] = []
    if rule.group != nil {
      do {
        groups = try socket.peerGroups() ?? AccountDatabase.groups(of: credentials.uid)
      } catch {
        groups = []
      }
    }
    return ControlRule.Peer(uid: credentials.uid, gid: credentials.gid, groups: groups)
  }

  /// Nil when `peer` may control now, else what it is told: who may. logind is asked only for
  /// a peer the rule does not allow whoever sits at the seats.
  func refusal(for peer: ControlRule.Peer?) -> String? {
    if let peer, rule.allowsAtAnySeat(peer) { return nil }
    let seats = Self.seatsNow()
    return rule.allows(peer, seats: seats) ? nil : rule.requirement(seats: seats)
  }

  /// Whether `uid` is the user of the active session at a seat now.
  static func isAtSeat(_ uid: UInt32) -> Bool {
    guard case .activeUsers(let users) = seatsNow() else { return false }
    return users.contains(uid)
  }
}
