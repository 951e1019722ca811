import OrientSystem

/// What the server asks of whoever decides which peers may run control commands:
/// `ControlPermission` in the daemon. A protocol so that a test, whose peers are all its own
/// root process, can stand in a gate that refuses them.
protocol ControlGate: Sendable {
  /// Who may control, for the error a refused peer gets.
  var requirement: String { get }

  /// Whether the peer at the other end of `socket`, with credentials `peer`, may control.
  func allows(_ peer: PeerCredentials?, on socket: borrowing FileDescriptor) -> Bool
}

extension ControlPermission: ControlGate {}
