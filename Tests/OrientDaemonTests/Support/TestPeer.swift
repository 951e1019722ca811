import Glibc
import Testing

@testable import OrientSystem

/// A listening, non-blocking Unix stream socket at `path`, for a test that needs only the
/// socket. Made here rather than with `UnixSocket.listen`: where a sandbox refuses that bind its
/// own file-system attributes (`unshare(CLONE_FS)`), it clears the whole process's umask around
/// the bind, and other tests in this process create files meanwhile.
func listeningSocket(at path: String) throws -> FileDescriptor {
  guard let address = UnixAddress(path) else { throw SystemError("bind \(path)", code: .nameTooLong) }
  let flags = SOCK_STREAM.rawValue | SOCK_NONBLOCK.rawValue | SOCK_CLOEXEC.rawValue
  let raw = socket(AF_UNIX, Int32(flags), 0)
  guard raw >= 0 else { throw SystemError("socket", code: .current) }
  let socket = FileDescriptor(adopting: raw)
  guard address.withSocketAddress({ bind(socket.rawValue, $0, $1) }) == 0 else {
    throw SystemError("bind \(path)", code: .current)
  }
  guard listen(socket.rawValue, 64) == 0 else { throw SystemError("listen", code: .current) }
  return socket
}

/// A client of the socket in the test process: it sends lines, and keeps every byte it is sent
/// while it listens (`listen(on:)`: the loop reads for it), or when the test reads for it.
final class TestPeer {
  let socket: FileDescriptor
  private(set) var received: [UInt8] = []
  /// The whole lines among `received`, counted as they come.
  private(set) var lineCount = 0
  /// Whether the server closed the connection (end of input, or a reset).
  private(set) var closedByServer = false
  private var watch: Watch?
  private var loop: EventLoop?

  init(connectingTo path: String) throws {
    socket = try UnixSocket.connect(path: path, nonBlocking: true)
  }

  deinit {
    if let watch, let loop { loop.unwatch(watch) }
  }

  /// Has `loop` read for this peer whenever bytes come: a subscriber that reads at once.
  func listen(on loop: EventLoop) throws {
    self.loop = loop
    watch = try loop.watch(socket.rawValue, for: .readable) { [unowned self] _ in self.readAvailable() }
  }

  /// Reads what has come, without waiting.
  func readAvailable() {
    var buffer = [UInt8](repeating: 0, count: 65536)
    while !closedByServer {
      let count: Int?
      do {
        count = try buffer.withUnsafeMutableBytes { try socket.receive(into: $0) }
      } catch {
        closedByServer = true
        break
      }
      guard let count else { return }
      if count == 0 {
        closedByServer = true
        break
      }
      received += buffer[0..<count]
      lineCount += buffer[0..<count].count { $0 == 0x0A }
    }
    // Closed: the loop must not report the end of input again and again.
    if let watch, let loop { loop.unwatch(watch) }
    watch = nil
  }

  /// Every whole line received, without its newline.
  var lines: [String] {
    guard let end = received.lastIndex(of: 0x0A) else { return [] }
    return received[..<end].split(separator: 0x0A, omittingEmptySubsequences: false).map {
      String(decoding: $0, as: UTF8.self)
    }
  }

  /// Sends `text` whole (it is small: the socket takes it at once).
  func send(_ text: String) { send(bytes: Array(text.utf8)) }

  /// Sends `bytes` whole (they are few: the socket takes them at once).
  func send(bytes: [UInt8]) {
    do {
      let sent = try socket.send(bytes[...])
      #expect(sent == bytes.count, "the socket took \(sent ?? 0) of \(bytes.count) bytes")
    } catch {
      Issue.record("send failed: \(error)")
    }
  }

  /// Shuts down the sending side: the server reads the end of the input.
  func shutDownSending() { _ = shutdown(socket.rawValue, Int32(SHUT_WR)) }

  /// Bytes sent that the server has not read yet.
  var unreadByServer: Int? { socket.unreadByPeer() }

  /// Forgets what was received so far, so that the next lines can be compared alone.
  func forget() {
    received = []
    lineCount = 0
  }
}
