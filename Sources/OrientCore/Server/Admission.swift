/// Who may connect to the socket: a total limit, a limit per user, and slots kept for root,
/// the daemon's own user and the user of the active session at a seat, so that other users,
/// alone or together, cannot lock out the desktop's hook or an administrator.
///
/// Counts the clients admitted, per user where the peer's user is known. Pure: the server
/// asks before it serves a newcomer, telling whether the newcomer is the user of the active
/// session at a seat (logind's answer, which may change between two newcomers), and says
/// when a client is gone.
package struct Admission: Sendable {
  /// Why a newcomer is refused; its `message` is the text the refused client reads.
  package enum Refusal: Equatable, Sendable {
    /// Every slot is taken (`--max-clients`).
    case full(maxClients: Int)
    /// Every slot not kept for root, the daemon's own user and the seat's user is taken.
    case reservedForOwners(othersMax: Int)
    /// The user holds its share (`--max-clients-per-user`).
    case perUserLimit(maxClientsPerUser: Int)

    /// The reason as the refused client reads it, after `error too-many-clients`.
    package var message: String {
      switch self {
      case .full(let maxClients):
        return "at most \(maxClients) clients are served at once (--max-clients)"
      case .reservedForOwners(let othersMax):
        return "at most \(othersMax) clients of other users than root, orientd's and the one at a seat "
          + "are served at once"
      case .perUserLimit(let maxClientsPerUser):
        return "at most \(maxClientsPerUser) clients per user (--max-clients-per-user)"
      }
    }
  }

  /// The most clients served at once.
  package let maxClients: Int
  /// The most clients one user other than root and the daemon's own may hold.
  package let maxClientsPerUser: Int
  /// The daemon's own user, which like root is limited only by `maxClients`.
  package let ownUID: UInt32
  /// The clients admitted and not yet released.
  package private(set) var count = 0
  private var perUser: [UInt32: Int] = [:]

  /// Admits up to `maxClients`, `maxClientsPerUser` of each user but root and `ownUID`.
  package init(maxClients: Int, maxClientsPerUser: Int, ownUID: UInt32) {
    self.maxClients = maxClients
    self.maxClientsPerUser = maxClientsPerUser
    self.ownUID = ownUID
  }

  /// Slots only root, the daemon's own user and the seat's user may take: a sixteenth of the
  /// total, at least one.
  package var reservedForOwners: Int { max(1, maxClients / 16) }

  /// The clients `uid` holds.
  package func clients(of uid: UInt32) -> Int { perUser[uid, default: 0] }

  /// Why a client of `uid` (nil: a peer whose user is unknown) would be refused now, or nil
  /// when it would be admitted. `isActiveSessionUser` says that `uid` is the user of the
  /// active session at a seat: it may take the reserved slots too, within its share.
  package func refusal(for uid: UInt32?, isActiveSessionUser: Bool = false) -> Refusal? {
    if count >= maxClients { return .full(maxClients: maxClients) }
    // Root and orientd's own user (the desktop's hook, the administrator) are limited only by
    // the total, so other users' connections cannot lock them out.
    if let uid, uid == 0 || uid == ownUID { return nil }
    // The seat's user (the desktop's `orientctl hook`) may take the reserve as well, within
    // its share per user. Its clients count among the others' when another user asks, which
    // only ever leaves the others less.
    if !(isActiveSessionUser && uid != nil) {
      let owners = clients(of: 0) + (ownUID == 0 ? 0 : clients(of: ownUID))
      let othersMax = maxClients - reservedForOwners
      if count - owners >= othersMax { return .reservedForOwners(othersMax: othersMax) }
    }
    // A peer whose user is unknown counts against the total and the reserve, not against a user.
    guard let uid else { return nil }
    if clients(of: uid) >= maxClientsPerUser { return .perUserLimit(maxClientsPerUser: maxClientsPerUser) }
    return nil
  }

  /// Counts a client of `uid` in, unless it is refused: then it returns why and counts nothing.
  package mutating func admit(_ uid: UInt32?, isActiveSessionUser: Bool = false) -> Refusal? {
    if let refusal = refusal(for: uid, isActiveSessionUser: isActiveSessionUser) { return refusal }
    count += 1
    if let uid { perUser[uid, default: 0] += 1 }
    return nil
  }

  /// Counts out a client of `uid` that was admitted: its slot is free again.
  package mutating func release(_ uid: UInt32?) {
    guard count > 0 else { return }
    count -= 1
    guard let uid, let held = perUser[uid] else { return }
    perUser[uid] = held > 1 ? held - 1 : nil
  }
}
