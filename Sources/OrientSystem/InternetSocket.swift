import Glibc

/// TCP sockets: a client connection with time limits, and a listener on the loopback address.
package enum InternetSocket {
  /// Connects to `host` (a name or an address) on `port` within `timeout`,
  /// through the first address the resolver gives, as libiio's network backend does.
  ///
  /// The socket is returned blocking and close-on-exec, with `timeout` as its
  /// send and receive timeouts, so no later call on it waits longer than that.
  package static func connect(host: String, port: UInt16, timeout: Duration) throws(SystemError)
    -> FileDescriptor
  {
    var hints = addrinfo()
    hints.ai_family = AF_UNSPEC
    hints.ai_socktype = Int32(SOCK_STREAM.rawValue)
    var found: UnsafeMutablePointer<addrinfo>?
    let status = getaddrinfo(host, String(port), &hints, &found)
    guard status == 0, let first = found else {
      // The resolver's own codes are no errno; EAI_SYSTEM leaves one in errno.
      let code: Errno = status == EAI_SYSTEM ? .current : .noSuchDeviceOrAddress
      let reason = String(cString: gai_strerror(status))
      throw SystemError("resolve \(host) (\(reason))", code: code)
    }
    defer { freeaddrinfo(found) }
    let address = first.pointee
    let socket = FileDescriptor(
      adopting: try systemCall("socket") {
        Glibc.socket(
          address.ai_family, address.ai_socktype | Int32(SOCK_CLOEXEC.rawValue | SOCK_NONBLOCK.rawValue), 0)
      })
    // A non-blocking connect, waited for with a limit: a host that drops packets would
    // otherwise hold the caller for the kernel's minutes of retries.
    switch retryingInterrupts({ Glibc.connect(socket.rawValue, address.ai_addr, address.ai_addrlen) }) {
    case .success: break
    case .failure(.inProgress):
      let ready = try Readiness.wait([(socket.rawValue, .writable)], timeout: timeout)
      guard !ready[0].isEmpty else { throw SystemError("connect to \(host) port \(port)", code: .timedOut) }
      var error: Int32 = 0
      var length = socklen_t(MemoryLayout<Int32>.size)
      _ = try systemCall("getsockopt SO_ERROR") {
        getsockopt(socket.rawValue, SOL_SOCKET, SO_ERROR, &error, &length)
      }
      guard error == 0 else {
        throw SystemError("connect to \(host) port \(port)", code: Errno(rawValue: error))
      }
    case .failure(let code):
      throw SystemError("connect to \(host) port \(port)", code: code)
    }
    let flags = try systemCall("fcntl F_GETFL") { fcntl(socket.rawValue, F_GETFL) }
    _ = try systemCall("fcntl F_SETFL") { fcntl(socket.rawValue, F_SETFL, flags & ~O_NONBLOCK) }
    let microseconds = max(0, timeout.wholeNanoseconds) / 1000
    var limit = timeval(tv_sec: Int(microseconds / 1_000_000), tv_usec: Int(microseconds % 1_000_000))
    for option in [SO_RCVTIMEO, SO_SNDTIMEO] {
      _ = try systemCall("setsockopt timeout") {
        setsockopt(socket.rawValue, SOL_SOCKET, option, &limit, socklen_t(MemoryLayout<timeval>.size))
      }
    }
    return socket
  }

  /// Listens on 127.0.0.1:`port` (0: a free port the kernel picks), non-blocking and
  /// close-on-exec; `boundPort` tells which port it got. Only the test bench's fake iiod
  /// listens (orientd is only ever a client of iiod); it is here because this module is the
  /// one place that makes system calls.
  package static func listenOnLoopbackForTesting(port: UInt16, backlog: Int32 = 64) throws(SystemError) -> FileDescriptor
  {
    let socket = FileDescriptor(
      adopting: try systemCall("socket") {
        Glibc.socket(AF_INET, Int32(SOCK_STREAM.rawValue | SOCK_CLOEXEC.rawValue | SOCK_NONBLOCK.rawValue), 0)
      })
    var yes: Int32 = 1
    _ = try systemCall("setsockopt SO_REUSEADDR") {
      setsockopt(socket.rawValue, SOL_SOCKET, SO_REUSEADDR, &yes, socklen_t(MemoryLayout<Int32>.size))
    }
    var address = sockaddr_in()
    address.sin_family = sa_family_t(AF_INET)
    address.sin_port = port.bigEndian
    address.sin_addr = in_addr(s_addr: UInt32(INADDR_LOOPBACK).bigEndian)
    _ = try systemCall("bind 127.0.0.1 port \(port)") {
      withUnsafePointer(to: &address) {
        $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
          bind(socket.rawValue, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
        }
      }
    }
    _ = try systemCall("listen") { Glibc.listen(socket.rawValue, backlog) }
    return socket
  }
}

extension FileDescriptor {
  /// The local port of a bound IPv4 or IPv6 socket.
  package func boundPort() throws(SystemError) -> UInt16 {
    var storage = sockaddr_storage()
    var length = socklen_t(MemoryLayout<sockaddr_storage>.size)
    _ = try systemCall("getsockname") {
      withUnsafeMutablePointer(to: &storage) {
        $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(rawValue, $0, &length) }
      }
    }
    return withUnsafeBytes(of: &storage) { bytes in
      // sin_port and sin6_port both follow the 2-byte family, in network order.
      UInt16(bytes[2]) << 8 | UInt16(bytes[3])
    }
  }
}
