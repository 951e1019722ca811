import Glibc

/// Who may hear the compass heading on the socket: root, the daemon's own user and the user
/// `geoclue` (where there is one), as iio-sensor-proxy's D-Bus policy, and orientd's, keep the
/// compass object for geoclue: a heading is part of where a person is and where they face,
/// which GeoClue hands out only to the applications a user allowed.
package struct HeadingPermission: Sendable {
  private let users: Set<UInt32>
  /// What a refused peer is told.
  package let requirement =
    "the compass heading is for root, orientd's user and geoclue only, as on D-Bus (GeoClue gives it to applications)"

  /// Root, the daemon's user and `geoclue`, looked up once: the user database may be slow (NSS),
  /// and refusals come on the event loop.
  package init() {
    var users: Set<UInt32> = [0, geteuid()]
    if let geoclue = getpwnam("geoclue") { users.insert(geoclue.pointee.pw_uid) }
    self.users = users
  }

  /// Whether the peer `peer` may hear the heading; one the kernel did not name may not.
  package func allows(_ peer: PeerCredentials?) -> Bool { peer.map { users.contains($0.uid) } ?? false }
}
