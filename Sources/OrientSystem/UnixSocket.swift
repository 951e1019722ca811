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

/// The process, user and group at the other end of a Unix socket.
public struct PeerCredentials: Sendable {
  public var pid: Int32
  public var uid: uid_t
  public var gid: gid_t
}

/// Unix stream sockets: listening with stale-socket recovery, connecting, peer credentials.
public enum UnixSocket {
  /// Binds and listens on `path`, creating missing parent directories (0755).
  ///
  /// A leftover socket file nobody listens on is replaced; a live one is an error.
  /// The socket is non-blocking and close-on-exec; its file gets `mode`.
  public static func listen(path: String, mode: mode_t, backlog: Int32 = 128) throws(ListenError) -> Int32 {
    let maximum = Int(clinux_unix_path_max())
    guard path.utf8.count <= maximum, !path.isEmpty else { throw .pathTooLong(path: path, maximum: maximum) }
    try removeStaleSocket(at: path)
    do {
      try makeDirectories(parentOf: path)
    } catch {
      throw .system(error)
    }
    let fd = clinux_unix_socket(1)
    guard fd >= 0 else { throw .system(SystemError("socket")) }
    guard clinux_unix_bind(fd, path) == 0 else {
      let error = SystemError("bind \(path)")
      close(fd)
      if error.code == EADDRINUSE { throw .inUse(path: path) }
      throw .system(error)
    }
    guard chmod(path, mode) == 0 else {
      let error = SystemError("chmod \(path)")
      close(fd)
      unlink(path)
      throw .system(error)
    }
    guard Glibc.listen(fd, backlog) == 0 else {
      let error = SystemError("listen \(path)")
      close(fd)
      unlink(path)
      throw .system(error)
    }
    return fd
  }

  private static func removeStaleSocket(at path: String) throws(ListenError) {
    var info = stat()
    guard lstat(path, &info) == 0 else { return }
    guard info.st_mode & S_IFMT == S_IFSOCK else { throw .notASocket(path: path) }
    let probe = clinux_unix_socket(1)
    guard probe >= 0 else { throw .system(SystemError("socket")) }
    defer { close(probe) }
    if clinux_unix_connect(probe, path) == 0 || errno == EAGAIN || errno == EINPROGRESS {
      throw .inUse(path: path)
    }
    guard errno == ECONNREFUSED || errno == ENOENT else {
      throw .system(SystemError("connect \(path) to check it"))
    }
    if unlink(path) != 0, errno != ENOENT { throw .system(SystemError("unlink stale socket \(path)")) }
  }

  /// Connects to the socket at `path`, blocking.
  public static func connect(path: String) throws(SystemError) -> Int32 {
    let fd = clinux_unix_socket(0)
    guard fd >= 0 else { throw SystemError("socket") }
    guard clinux_unix_connect(fd, path) == 0 else {
      let error = SystemError("connect \(path)")
      close(fd)
      throw error
    }
    return fd
  }

  /// The credentials of a connected peer.
  public static func peer(of fd: Int32) -> PeerCredentials? {
    var pid: Int32 = 0
    var uid: UInt32 = 0
    var gid: UInt32 = 0
    guard clinux_peer_credentials(fd, &pid, &uid, &gid) == 0 else { return nil }
    return PeerCredentials(pid: pid, uid: uid, gid: gid)
  }
}

/// Creates the missing directories above `path` with mode 0755, like `mkdir -p`.
public func makeDirectories(parentOf path: String) throws(SystemError) {
  var components = path.split(separator: "/", omittingEmptySubsequences: true).dropLast()
  var current = path.hasPrefix("/") ? "" : "."
  while let next = components.first {
    components = components.dropFirst()
    current += "/" + next
    if mkdir(current, 0o755) == 0 {
      _ = chmod(current, 0o755)
    } else if errno != EEXIST {
      throw SystemError("mkdir \(current)")
    }
  }
}
