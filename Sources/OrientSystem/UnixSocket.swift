import CLinux
import Glibc

/// Why a listening socket could not be set up.
package enum ListenError: Error, Sendable, CustomStringConvertible {
  /// Another process accepts connections on the path.
  case inUse(path: String)
  /// The path exists and is not a socket.
  case notASocket(path: String)
  /// The path does not fit in `sun_path`, or names no file.
  case pathTooLong(path: String, maximum: Int)
  /// The socket's directory is unsafe, or could not be made.
  case directory(path: String, DirectoryRefusal)
  /// A system call failed.
  case system(SystemError)

  package var description: String {
    switch self {
    case .inUse(let path): return "another orientd is listening on \(path)"
    case .notASocket(let path): return "\(path) exists and is not a socket; refusing to replace it"
    case .pathTooLong(let path, let maximum):
      return "socket path \(path) is longer than \(maximum) bytes or names no file"
    case .directory(let path, let refusal): return "socket \(path): \(refusal)"
    case .system(let error): return "\(error)"
    }
  }
}

/// A listening socket and its file.
package struct UnixListener: ~Copyable {
  /// The listening socket: non-blocking, close-on-exec.
  var descriptor: FileDescriptor
  /// The socket's file, to remove at exit.
  package let file: SocketFile

  /// The listening socket, to serve on; keep `file` first.
  package consuming func takeDescriptor() -> FileDescriptor { descriptor }
}

/// A socket file this process bound, in its directory held open.
///
/// The file itself is held open too (`O_PATH`, which neither reads nor connects): while a
/// descriptor refers to it, its inode cannot be freed, so no other file can get its device
/// and inode numbers. Without that, a filesystem that reuses freed inodes at once (ext4) gave
/// the socket a newer orientd bound in its place the old one's numbers, and the leaving orientd
/// removed it as its own.
package final class SocketFile: Sendable {
  /// The socket's path, for messages.
  package let path: String
  private let directory: DirectoryDescriptor
  private let name: String
  /// The bound file, held so that its identity stays its own.
  private let pin: FileDescriptor
  private let device: UInt64
  private let inode: UInt64

  /// Holds the socket file `name` in `directory`, which must be the socket just bound there.
  init(directory: DirectoryDescriptor, name: String) throws(SystemError) {
    let path = directory.path(of: name)
    let pin = FileDescriptor(
      adopting: try systemCall("open \(path)") {
        openat(directory.rawValue, name, clinux_open_path_flag() | O_NOFOLLOW | O_CLOEXEC)
      })
    let status = try pin.status()
    guard status.kind == .socket else {
      // Not in the held directory: bound somewhere else, and nothing here is ours to remove.
      throw SystemError("find \(path) after bind", code: .noSuchFile)
    }
    self.directory = directory
    self.name = name
    self.path = path
    device = status.device
    inode = status.inode
    self.pin = pin
  }

  /// Whether the file at the socket's name is still the one this process bound.
  var isStillOurs: Bool {
    // Nothing there to examine is not ours: the probe's answer.
    guard let status = try? directory.status(of: name) else { return false }
    return status.device == device && status.inode == inode
  }

  /// Removes the socket file if it is still the one this process bound, not one a newer
  /// orientd made; relative to the directory, so no path swapped meanwhile redirects it.
  ///
  /// Call it while still listening: a newer orientd replaces only a socket nobody listens on,
  /// so until the listener closes, nothing can take the name between this check and the
  /// removal.
  package func removeIfStillOurs() {
    guard isStillOurs else { return }
    // Tidying on the way out: a name left behind is replaced by the next orientd that binds.
    try? directory.remove(name)
  }
}

/// Unix sockets: listening with stale-socket recovery, connecting, and datagrams.
package enum UnixSocket {
  /// Binds and listens on `path`, creating missing parent directories (0755).
  ///
  /// The directory is reached as `DirectoryDescriptor.openTrusted` does (refused if another
  /// user could change it), and everything after is done relative to it: a leftover socket
  /// file nobody listens on is replaced, a live one is an error, anything else is left alone.
  /// The socket file gets `mode` from the moment it exists. The socket is non-blocking and
  /// close-on-exec.
  package static func listen(path: String, mode: UInt32, backlog: Int32 = 128) throws(ListenError)
    -> UnixListener
  {
    let name = String(path.split(separator: "/").last ?? "")
    guard UnixAddress(path) != nil, !path.hasPrefix("@"), !path.hasSuffix("/"), name != ".", name != ".."
    else {
      throw .pathTooLong(path: path, maximum: UnixAddress.maximumPathLength)
    }
    let directory: DirectoryDescriptor
    do {
      directory = try DirectoryDescriptor.openTrusted(FileSystem.parent(of: path), creating: true)
    } catch {
      throw .directory(path: path, error)
    }
    // bind and connect take only a path. The walk found every directory on it safe from
    // other users, so it leads to the held directory as long as orientd runs; the check after
    // bind confirms it. (A /proc/self/fd/N/name address would show in ss, lsof and
    // getsockname instead of the path clients use.)
    let address = UnixAddress(path)!
    try removeStaleSocket(name, in: directory, address: address, path: path)
    do throws(SystemError) {
      let socket = try makeSocket(type: SOCK_STREAM, nonBlocking: true)
      // Linux gives the new file the socket inode's mode less the umask (unix_bind_bsd in
      // net/unix/af_unix.c), so the mode is set on the descriptor, never on a path.
      try socket.setPermissions(mode)
      try bind(socket, to: address, path: path)
      let file = try SocketFile(directory: directory, name: name)
      do throws(SystemError) {
        _ = try systemCall("listen \(path)") { Glibc.listen(socket.rawValue, backlog) }
      } catch {
        file.removeIfStillOurs()
        throw error
      }
      return UnixListener(descriptor: socket, file: file)
    } catch {
      if error.code == .addressInUse { throw .inUse(path: path) }
      throw .system(error)
    }
  }

  /// bind(2) so that the file gets exactly the socket's mode, whatever the umask.
  ///
  /// Linux takes the umask off the socket's mode, and the umask is the whole process's: every
  /// thread shares it. So the bind runs on a thread of its own that first takes a private copy
  /// of the process's file-system attributes (unshare(CLONE_FS): root, working directory and
  /// umask) and clears only its own umask; no other thread sees a cleared umask, whatever it
  /// creates meanwhile. Where unshare is refused (a sandbox that forbids it), the process's
  /// umask is cleared for the call instead: orientd binds on its main thread before it starts
  /// any thread that creates files, and every file it creates passes its exact mode.
  private static func bind(_ socket: borrowing FileDescriptor, to address: UnixAddress, path: String)
    throws(SystemError)
  {
    let descriptor = socket.rawValue
    let outcome = BindOutcome()
    let binder = try WorkerThread(name: "orientd-bind") {
      guard clinux_unshare_file_system_attributes() == 0 else { return }
      outcome.privateUmask = true
      umask(0)
      outcome.result = retryingInterrupts {
        address.withSocketAddress { Glibc.bind(descriptor, $0, $1) }
      }
    }
    // bind on a local socket does not wait on anything; the limit only guards a thread that
    // never started.
    guard binder.join(within: .seconds(10)) else { throw SystemError("bind \(path)", code: .timedOut) }
    guard outcome.privateUmask else {
      let previous = umask(0)
      defer { umask(previous) }
      _ = try systemCall("bind \(path)") { address.withSocketAddress { Glibc.bind(descriptor, $0, $1) } }
      return
    }
    if case .failure(let code) = outcome.result { throw SystemError("bind \(path)", code: code) }
  }

  /// What the binding thread found; read only after it was joined.
  private final class BindOutcome: @unchecked Sendable {
    var privateUmask = false
    var result: Result<Int32, Errno> = .success(0)
  }

  private static func removeStaleSocket(
    _ name: String, in directory: DirectoryDescriptor, address: UnixAddress, path: String
  ) throws(ListenError) {
    let found: FileStatus?
    do {
      found = try directory.status(of: name)
    } catch {
      throw .system(error)
    }
    guard let found else { return }
    guard found.kind == .socket else { throw .notASocket(path: path) }
    let nobodyListens: Bool
    do {
      _ = try connect(address, path: path, nonBlocking: true)
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
      try directory.remove(name)
    } catch  where error.code == .noSuchFile {
    } catch {
      throw .system(SystemError("unlink stale socket \(path)", code: error.code))
    }
  }

  /// Connects a stream socket to `path`; blocking unless asked otherwise.
  package static func connect(path: String, nonBlocking: Bool = false) throws(SystemError) -> FileDescriptor {
    guard let address = UnixAddress(path) else { throw SystemError("connect \(path)", code: .nameTooLong) }
    return try connect(address, path: path, nonBlocking: nonBlocking)
  }

  private static func connect(_ address: UnixAddress, path: String, nonBlocking: Bool) throws(SystemError)
    -> FileDescriptor
  {
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
  static func sendDatagram(_ message: String, to path: String) throws(SystemError) {
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
