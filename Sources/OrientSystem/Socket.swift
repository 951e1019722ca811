import CLinux
import Glibc

extension FileDescriptor {
  /// Sends what the socket takes of `bytes` without raising SIGPIPE; nil when its buffer is full.
  package func send(_ bytes: UnsafeRawBufferPointer) throws(SystemError) -> Int? {
    switch retryingInterrupts({ Glibc.send(rawValue, bytes.baseAddress, bytes.count, Int32(MSG_NOSIGNAL)) }) {
    case .success(let count): return count
    case .failure(.wouldBlock): return nil
    case .failure(let code): throw SystemError("send", code: code)
    }
  }

  /// Sends what the socket takes of `bytes`; nil when its buffer is full.
  package func send(_ bytes: ArraySlice<UInt8>) throws(SystemError) -> Int? {
    try bytes.withUnsafeBytes { buffer in Result { () throws(SystemError) in try send(buffer) } }.get()
  }

  /// Sends all of `bytes` on a blocking socket without raising SIGPIPE.
  package func sendAll(_ bytes: UnsafeRawBufferPointer) throws(SystemError) {
    var offset = 0
    while offset < bytes.count {
      let rest = UnsafeRawBufferPointer(rebasing: bytes[offset...])
      guard let sent = try send(rest) else { throw SystemError("send", code: .wouldBlock) }
      offset += sent
    }
  }

  /// Sends all of a string's UTF-8 bytes on a blocking socket.
  package func sendAll(_ text: String) throws(SystemError) {
    var text = text
    try text.withUTF8 { bytes in
      Result { () throws(SystemError) in try sendAll(UnsafeRawBufferPointer(bytes)) }
    }.get()
  }

  /// Receives up to `buffer.count` bytes; 0 when the peer shut down, nil when nothing waits.
  package func receive(into buffer: UnsafeMutableRawBufferPointer) throws(SystemError) -> Int? {
    switch retryingInterrupts({ recv(rawValue, buffer.baseAddress, buffer.count, 0) }) {
    case .success(let count): return count
    case .failure(.wouldBlock): return nil
    case .failure(let code): throw SystemError("recv", code: code)
    }
  }

  /// Accepts a pending connection, non-blocking and close-on-exec; nil when none waits.
  ///
  /// A connection that was aborted before it was accepted is skipped.
  package func accept() throws(SystemError) -> FileDescriptor? {
    while true {
      switch retryingInterrupts({ clinux_accept(rawValue) }) {
      case .success(let fd): return FileDescriptor(adopting: fd)
      case .failure(.wouldBlock): return nil
      case .failure(.connectionAborted): continue
      case .failure(let code): throw SystemError("accept", code: code)
      }
    }
  }

  /// The credentials of a connected Unix socket's peer.
  package func peerCredentials() -> PeerCredentials? {
    var pid: Int32 = 0
    var uid: UInt32 = 0
    var gid: UInt32 = 0
    guard clinux_peer_credentials(rawValue, &pid, &uid, &gid) == 0 else { return nil }
    return PeerCredentials(pid: pid, uid: uid, gid: gid)
  }

  /// The supplementary groups a connected Unix socket's peer had when it connected
  /// (SO_PEERGROUPS); nil when the kernel does not tell them (Linux before 4.13).
  package func peerGroups() throws(SystemError) -> [UInt32]? {
    let size = MemoryLayout<gid_t>.size
    var groups = [gid_t](repeating: 0, count: 32)
    while true {
      var length = socklen_t(groups.count * size)
      switch retryingInterrupts({ getsockopt(rawValue, SOL_SOCKET, SO_PEERGROUPS, &groups, &length) }) {
      case .success:
        return Array(groups.prefix(Int(length) / size))
      case .failure(let code) where code.rawValue == ERANGE && Int(length) > groups.count * size:
        // The kernel says how much room the list needs (at most NGROUPS_MAX groups).
        groups = [gid_t](repeating: 0, count: (Int(length) + size - 1) / size)
      case .failure(let code) where code.rawValue == ENOPROTOOPT:
        return nil
      case .failure(let code):
        throw SystemError("getsockopt SO_PEERGROUPS", code: code)
      }
    }
  }

  /// Whether this is a listening Unix stream socket (as one passed by systemd must be).
  var isListeningUnixStream: Bool {
    func option(_ name: Int32) -> Int32? {
      var value: Int32 = 0
      var length = socklen_t(MemoryLayout<Int32>.size)
      return getsockopt(rawValue, SOL_SOCKET, name, &value, &length) == 0 ? value : nil
    }
    guard option(SO_ACCEPTCONN) == 1, option(SO_TYPE) == Int32(SOCK_STREAM.rawValue),
      option(SO_DOMAIN) == AF_UNIX
    else { return false }
    return true
  }
}
