import OrientSystem

/// Connections refused for lack of room, kept just long enough for the client to read why.
///
/// Closing a socket at once would lose the reason: a client that sends its command first
/// (as orientctl does) then fails to send and may never read. So a refused socket gets its
/// error line, its sending side is shut down, and what the client sends is read and
/// discarded until it closes or a second passes. At most `capacity` wait at once; past that,
/// a refused socket is closed right after its error line, so refusals cost bounded memory.
final class RefusedConnections {
  private final class Refused {
    let socket: FileDescriptor
    /// When the connection is closed whether or not the client read its error.
    let deadline: MonotonicInstant
    var watch: Watch?

    init(socket: consuming FileDescriptor, deadline: MonotonicInstant) {
      self.socket = socket
      self.deadline = deadline
    }
  }

  /// How long a refused client has to read why.
  static let lingering = Duration.seconds(1)

  private let loop: EventLoop
  private let capacity: Int
  private var waiting: [Int32: Refused] = [:]
  private var expiry: LoopTimer?
  private var discard = [UInt8](repeating: 0, count: 1024)

  /// Keeps at most `capacity` refused connections waiting on `loop`.
  init(loop: EventLoop, capacity: Int = 32) {
    self.loop = loop
    self.capacity = capacity
    expiry = LoopTimer(loop: loop) { [unowned self] _ in self.closeExpired() }
  }

  /// Sends `line` on `socket` and closes it once the client has had the chance to read it.
  func refuse(_ socket: consuming FileDescriptor, saying line: String) {
    // A courtesy on a non-blocking socket: a client that cannot take it is refused all the same.
    _ = try? socket.send(Array(line.utf8)[...])
    _ = try? socket.shutdownWriting()
    guard waiting.count < capacity else { return }
    let descriptor = socket.rawValue
    let refused = Refused(socket: socket, deadline: loop.now + Self.lingering)
    // Unwatched, it is closed at once, as past `capacity`: the client may miss its line.
    refused.watch = try? loop.watch(descriptor, for: .readable) { [unowned self, unowned refused] _ in
      self.drain(refused)
    }
    guard refused.watch != nil else { return }
    waiting[descriptor] = refused
    if waiting.count == 1 { expiry?.schedule(after: Self.lingering) }
  }

  /// Closes every waiting connection.
  func closeAll() {
    for refused in Array(waiting.values) { close(refused) }
    expiry = nil
  }

  private func drain(_ refused: Refused) {
    do {
      // Nothing waiting (nil), or input read and thrown away: the client may still read.
      guard let count = try discard.withUnsafeMutableBytes({ try refused.socket.receive(into: $0) }),
        count == 0
      else { return }
    } catch {}
    // End of input, or an error: the client is done.
    close(refused)
  }

  private func closeExpired() {
    let now = loop.now
    for refused in Array(waiting.values) where refused.deadline <= now { close(refused) }
    if let next = waiting.values.map(\.deadline).min() { expiry?.schedule(at: next) }
  }

  private func close(_ refused: Refused) {
    if let watch = refused.watch { loop.unwatch(watch) }
    refused.watch = nil
    waiting[refused.socket.rawValue] = nil
  }
}
