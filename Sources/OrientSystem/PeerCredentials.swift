/// The process, user and group at the other end of a Unix socket.
package struct PeerCredentials: Sendable {
  package var pid: Int32
  package var uid: UInt32
  /// The peer's effective group when it connected.
  package var gid: UInt32

  /// Credentials as given; the kernel's come from `FileDescriptor.peerCredentials()`.
  init(pid: Int32, uid: UInt32, gid: UInt32) {
    self.pid = pid
    self.uid = uid
    self.gid = gid
  }
}
