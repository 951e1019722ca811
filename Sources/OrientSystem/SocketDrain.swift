import Glibc

extension FileDescriptor {
  /// Ends the sending side of a connected socket: the peer reads what was sent, then end of
  /// file, while this side can still read what the peer sends.
  package func shutdownWriting() throws(SystemError) {
    _ = try systemCall("shutdown") { shutdown(rawValue, Int32(SHUT_WR)) }
  }

  /// How many bytes this socket sent that its peer has not read yet (SIOCOUTQ), or nil when
  /// the kernel does not say.
  package func unreadByPeer() -> Int? {
    var count: Int32 = 0
    guard ioctl(rawValue, UInt(TIOCOUTQ), &count) == 0 else { return nil }
    return Int(count)
  }
}
