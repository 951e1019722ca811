/// Whether this connection holds a well-known name it asked for.
package enum NameOwnership: Sendable, Equatable {
  /// The connection is the name's primary owner.
  case owned
  /// Another connection owns the name; this one waits in the bus's queue and gets the name
  /// (a `NameAcquired` signal) when the owner leaves.
  case queued
  /// The connection neither owns the name nor waits for it (`NameLost`, or the bus refused).
  case lost
}

/// What a `BusConnection` reports to its owner, always after sd-bus has finished processing,
/// so the handler may close the connection.
package enum BusEvent: Sendable, Equatable {
  /// The ownership of a requested name changed.
  case name(String, NameOwnership)
  /// The bus answered a name request with an error (e.g. the policy forbids owning it).
  case nameRequestFailed(String, error: String)
  /// A client watched with `watchPeer` left the bus (its connection closed, killed or not).
  case peerGone(String)
  /// The connection is gone (the bus daemon exited or dropped it): the connection no longer
  /// watches anything; open a new one to reconnect.
  case disconnected(reason: String)
}
