/// The screen orientation as one socket client is told it once it has declared the
/// orientations it supports (`supports LIST`), the way an iOS screen declares its supported
/// interface orientations: the screen policy's own rule, applied to the same device
/// orientations within the intersection of the allowed set and the client's set. The device
/// orientation is the same for everyone, and the lock still wins whatever the client supports.
///
/// A client that declared nothing (or `supports all`) sees the policy's own orientation, as
/// other clients, D-Bus and the hooks always do. A set none of whose orientations is allowed is
/// refused when it is declared; when a later `allow` leaves none of them, the client's
/// orientation is `undefined` (or the lock) until one is allowed again: the client keeps its
/// set, and is never turned to an orientation it said it cannot show.
///
/// Pure: computed from the policy's state and the client's set.
package struct ClientScreenView: Hashable, Sendable {
  /// The orientations the client supports; `.all` for a client that declared none.
  package let supported: AllowedOrientations

  /// The view of a client that declared nothing: the policy's orientation.
  package static let policy = ClientScreenView(checked: .all)

  private init(checked supported: AllowedOrientations) { self.supported = supported }

  /// The view of a client that declares `supported` while `policy` holds; refused when none
  /// of those orientations is allowed, since the client could then be told none.
  package init(supporting supported: AllowedOrientations, under policy: ScreenPolicy) throws(PolicyError) {
    guard !supported.isDisjoint(with: policy.allowed) else {
      throw .noneSupported(supported, policy.allowed)
    }
    self.supported = supported
  }

  /// Whether the client sees exactly the policy's orientation, whatever happens.
  package var followsPolicy: Bool { supported == .all }

  /// The client's screen orientation under `policy`.
  package func orientation(under policy: ScreenPolicy) -> ScreenOrientation? {
    // A set that holds every allowed orientation changes nothing: the policy's own answer.
    guard !supported.isSuperset(of: policy.allowed) else { return policy.orientation }
    return policy.orientation(within: policy.allowed.intersection(supported))
  }
}
