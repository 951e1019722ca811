import OrientCore
import OrientSystem

/// What the server asks of whoever decides which peers may run control commands and read
/// `info`'s hooks and paths: `ControlAccess` in the daemon. A protocol so that a test, whose
/// peers are all its own root process, can stand in a gate that refuses them.
protocol ControlGate {
  /// The peer of `socket`, with credentials `credentials`, as the decision sees it; nil when
  /// the kernel did not tell who it is.
  func peer(_ credentials: PeerCredentials?, on socket: borrowing FileDescriptor) -> ControlRule.Peer?

  /// Nil when `peer` may control now, else what it is told: who may.
  func refusal(for peer: ControlRule.Peer?) -> String?
}

extension ControlAccess: ControlGate {}
