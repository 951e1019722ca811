import CLinux
import Glibc

/// Why a listening socket could not be set up.
public enum ListenError: Error, Sendable, CustomStringConvertible {
  /// Another process accepts connections on the path.
  case inUse(path: String)
  /// The path exists and is not a socket.
  case notASocket(path: String)
  /// The path does not fit in `sun_path`.
  case pathTooLong(path: String, maximum: Int)
  /// A system call failed.
  case system(SystemError)

  public var description: String {
    switch self {
    case .inUse(let path): return "another orientd is listening on \(path)"
    case .notASocket(let path): return "\(path) exists and is not a socket; refusing to replace it"
    case .pathTooLong(let path, let maximum): return "socket path \(path) is longer than \(maximum) bytes"
    case .system(let error): return "\(error)"
    }
  }
}

/// Unix sockets: listening with stale-socket recovery, connecting, and datagrams.
public enum UnixSocket {
  /// Binds and listens on `path`, creating missing parent directories (0755).
  ///
  /// A leftover socket file nobody listens on is replaced; a live one is an error.
  /// The socket is non-blocking and close-on-exec; its file gets `mode`.
  public static func listen(path: String, mode: UInt32, backlog: Int32 = 128) throws(ListenError)
    -> FileDescriptor
  {
    guard let address = UnixAddress(path), !path.hasPrefix("@") else {
      throw .pathTooLong(path: path, maximum: UnixAddress.maximumPathLength)
    }
    try removeStaleSocket(at: path)
    do {
      try FileSystem.makeDirectories(parentOf: path)
    } catch {
      throw .system(error)
    }
    do throws(SystemError) {
      let socket = try makeSocket(type: SOCK_STREAM, nonBlocking: true)
      _ = try systemCall("bind \(path)") { address.withSocketAddress { bind(socket.rawValue, $0, $1) } }
      do throws(SystemError) {
        _ = try systemCall("chmod \(path)") { chmod(path, mode) }
        _ = try systemCall("listen \(path)") { Glibc.listen(socket.rawValue, backlog) }
      } catch {
        try? FileSystem.remove(path)
        throw error
      }
      return socket
    } catch {
      if error.code == .addressInUse { throw .inUse(path: path) }
      throw .system(error)
    }
  }

  private static func removeStaleSocket(at path: String) throws(ListenError) {
    guard let status = try? FileSystem.status(of: path, followingLinks: false) else { return }
    guard status.kind == .socket else { throw .notASocket(path: path) }
    let nobodyListens: Bool
    do {
      _ = try connect(path: path, nonBlocking: true)
      nobodyListens = false
    } catch {
      switch error.code {
      case .connectionRefused, .noSuchFile: nobodyListens = true
      case .wouldBlock, .inProgress: nobodyListens = false
      default: throw .system(SystemError("connect \(path) to check it", code: error.code))
      }
    }
    // A file nobody listens on was left by an orientd that did not clean up.
    guard nobodyListens else { throw .inUse(path: path) }
    do {
      try FileSystem.remove(path)
    } catch  where error.code == .noSuchFile {
    } catch {
      throw .system(SystemError("unlink stale socket \(path)", code: error.code))
    }
  }

  /// Connects a stream socket to `path`; blocking unless asked otherwise.
  public static func connect(path: String, nonBlocking: Bool = false) throws(SystemError) -> FileDescriptor {
    guard let address = UnixAddress(path) else { throw SystemError("connect \(path)", code: .nameTooLong) }
    let socket = try makeSocket(type: SOCK_STREAM, nonBlocking: nonBlocking)
    _ = try systemCall("connect \(path)") {
      address.withSocketAddress { Glibc.connect(socket.rawValue, $0, $1) }
    }
    return socket
  }

  /// Sends one datagram to the datagram socket at `path` (`@` first: the abstract namespace).
  ///
  /// Never waits: a receiver whose queue is full (a service manager that does not read)
  /// gets an error (EAGAIN), not a sender stuck in sendto.
  public static func sendDatagram(_ message: String, to path: String) throws(SystemError) {
    guard let address = UnixAddress(path) else { throw SystemError("sendto \(path)", code: .invalidArgument) }
    let socket = try makeSocket(type: SOCK_DGRAM, nonBlocking: true)
    let bytes = Array(message.utf8)
    _ = try systemCall("sendto \(path)") {
      address.withSocketAddress {
        sendto(socket.rawValue, bytes, bytes.count, Int32(MSG_NOSIGNAL), $0, $1)
      }
    }
  }

  private static func makeSocket(type: __socket_type, nonBlocking: Bool) throws(SystemError) -> FileDescriptor
  {
    let flags = type.rawValue | SOCK_CLOEXEC.rawValue | (nonBlocking ? SOCK_NONBLOCK.rawValue : 0)
    return FileDescriptor(adopting: try systemCall("socket") { socket(AF_UNIX, Int32(flags), 0) })
  }
}
