import OrientCore
import OrientSystem

/// One connected client: its socket, the input it sent and is not served yet, the output that
/// waits for the socket, and where it is in its life (`ConnectionState`).
///
/// The connection reads the client's lines and hands them to its protocol session a few per
/// loop round; it writes what the session and the server send, within the output limit. What
/// happens to it (the peer hung up, its input ended, it closes, it waits for a commit or a
/// current state) changes its own state, through its own methods.
///
/// Why this type has about 15 stored properties: a connection owns its socket, its watch and
/// what the watch is set for, its input (split lines and the bytes not yet served) and its
/// output queue; its life is the pure `ConnectionState`.
final class ClientConnection {
  /// A client whose queued output costs more than this many bytes is collapsed or dropped.
  static let outputLimit = 64 * 1024
  /// Lines served from one client per loop round; the rest wait for the next round.
  static let linesPerRound = 16
  /// The longest line a client may send, without its LF.
  static let lineLimit = 1024

  /// The accepted socket; it closes when the connection goes.
  let socket: FileDescriptor
  /// Who connected, as the kernel tells it; nil when it does not.
  let peer: PeerCredentials?
  /// When the connection was accepted.
  let connectedAt: MonotonicInstant
  /// Where the client is in its life.
  private(set) var state = ConnectionState(linesPerRound: linesPerRound)
  /// Serves the client's lines and keeps its settings.
  let session: SessionHandler
  private unowned let server: SocketServer
  private let loop: EventLoop
  private var watch: Watch?
  /// Whether the loop watches for writability (output is waiting).
  private var watchingWritable = false
  /// Whether the loop watches for input.
  private var watchingReadable = true
  private var output = OutputQueue()
  private var splitter = LineSplitter(limit: lineLimit)
  /// Bytes received and not yet cut into lines (at most one read's worth: nothing is read
  /// while any wait), so waiting input costs its bytes and no more.
  private var received: [UInt8] = []
  private var nextReceived = 0

  /// A connection on an accepted `socket`; nothing is watched until `startWatching`.
  init(socket: consuming FileDescriptor, peer: PeerCredentials?, server: SocketServer, loop: EventLoop) {
    self.socket = socket
    self.peer = peer
    self.server = server
    self.loop = loop
    connectedAt = loop.now
    session = SessionHandler(server: server, host: server.host, peer: peer)
  }

  /// The socket's number, which names the client in the server's table.
  var descriptor: Int32 { socket.rawValue }

  /// Has the loop report the client's input to it.
  func startWatching() throws(SystemError) {
    watch = try loop.watch(descriptor, for: .readable) { [unowned self] events in self.service(events) }
  }

  /// Whether the client's queued output is past half the limit: it is not served, nor read,
  /// until the socket takes some.
  private var outputPilingUp: Bool { output.retainedBytes > Self.outputLimit / 2 }

  /// Whether bytes received earlier still wait to be served.
  private var hasUnservedInput: Bool { nextReceived < received.count }

  // MARK: Events

  /// The loop reported `events` for the socket (or a look for hang-ups found them).
  func service(_ events: IOEvents) {
    if events.contains(.hangUp) || events.contains(.error) {
      // The peer closed both ways (an error too: it closed without reading what it was sent).
      hangUp()
      return serve()
    }
    if events.contains(.writable) {
      guard output.flush(to: socket) else { return hangUp(serveLater: true) }
    }
    if events.contains(.readable), watchingReadable { readInput() }
    guard state.isOpen else { return }
    serve()
  }

  /// The peer went away. What it sent before it closed is still served (a `lock` sent just
  /// before the close counts); nothing more is sent to it. With `serveLater`, serving waits
  /// for the next round, so a change it makes cannot overtake the one being published now.
  private func hangUp(serveLater: Bool = false) {
    state.peerHungUp()
    output.discard()
    stopWatching()
    if serveLater { server.serveLater(self) }
  }

  /// Reads one buffer's worth of input and keeps its lines to be served.
  private func readInput() {
    let bytes: [UInt8]?
    do {
      bytes = try server.receive(from: socket)
    } catch {
      if state.peerGone { state.inputClosed() } else { server.drop(self) }
      return
    }
    guard let bytes else { return }
    if bytes.isEmpty {
      // The client shut down its sending side (`echo get | socat ...`): it has had its
      // answers and may still listen for events, so keep it until it closes. A half line
      // is discarded.
      state.inputClosed()
      return
    }
    received = bytes
    nextReceived = 0
  }

  /// The next whole line of what was received (or `.tooLong`), if any; the rest of an
  /// unfinished line goes to the splitter, which holds at most its limit.
  private func nextLine() -> SplitLine? {
    while nextReceived < received.count {
      let start = nextReceived
      let end = received[start...].firstIndex(of: 0x0A).map { $0 + 1 } ?? received.count
      nextReceived = end
      let pieces = received[start..<end].withUnsafeBytes { splitter.append($0) }
      if nextReceived == received.count {
        received = []
        nextReceived = 0
      }
      // Up to one newline was given: at most one line, or the error that ends the client.
      if let piece = pieces.first { return piece }
    }
    return nil
  }

  // MARK: Serving

  /// Serves up to `linesPerRound` of the client's waiting lines, reading more when a peer
  /// that hung up still has input, and leaves the rest for the next round.
  ///
  /// A client waits for its last change to be saved before it is served again, and one whose
  /// output piles up waits until the socket takes it (`ConnectionState` has the rules).
  func serve() {
    var served = 0
    while served < Self.linesPerRound, state.mayServeLine(outputPilingUp: outputPilingUp) {
      guard let piece = nextLine() else {
        guard state.readsWithoutReadiness else { break }
        readInput()
        guard state.isOpen else { return }
        continue
      }
      served += 1
      state.lineServed()
      switch piece {
      case .line(let bytes):
        session.handle(bytes, from: self)
      case .tooLong:
        // The lines before it were answered; this one ends the client.
        send(.error(ProtocolError(.lineTooLong, "lines are at most \(splitter.limit) bytes")))
        state.close()
      }
      guard state.isOpen else { return }
    }
    switch state.afterRound(
      hasUnservedInput: hasUnservedInput, outputPilingUp: outputPilingUp,
      hasPendingOutput: output.hasPendingOutput)
    {
    case .drop:
      return server.drop(self)
    case .serveAgain:
      server.serveLater(self)
    case .rest:
      break
    }
    updateInterest()
  }

  /// The client may send nothing more (`quit`): its output is flushed, then it is dropped.
  func close() { state.close() }

  /// The client's `ok` and its further commands wait until `generation` is saved.
  func awaitCommit(_ generation: UInt64) { state.awaitCommit(generation) }

  /// Every commit up to `generation` is settled: true when the client waited for one of them;
  /// it is then due its `ok` and is served again.
  func committed(through generation: UInt64) -> Bool { state.committed(through: generation) }

  /// The greeting or a `get` reply waits for a current state; nothing is served meanwhile.
  func awaitFresh(_ wait: FreshWait) {
    state.awaitFresh(wait)
    if case .getReply(let keys?) = wait, !keys.readingKinds.isEmpty { readingWaitSince = loop.now }
    updateInterest()
  }

  /// When the `get` waiting now started to wait for a reading, if it does.
  private(set) var readingWaitSince: MonotonicInstant?

  /// The state is current again: what waited for it, if anything did.
  func stateIsFresh() -> FreshWait? {
    readingWaitSince = nil
    return state.stateIsFresh()
  }

  /// The server forgot the client: nothing more is watched. The socket closes when the last
  /// reference to the connection goes.
  func end() {
    state.end()
    stopWatching()
  }

  // MARK: Output

  /// Renders `reply` in the client's format and sends it.
  func send(_ reply: Reply) {
    send(Array(ProtocolRendering.line(for: reply, format: session.format).utf8), isReply: true)
  }

  /// Sends `bytes`, or queues them behind what waits. A client whose output passes the limit
  /// is dropped if a reply is among it (it stopped reading its replies), else its backlog
  /// becomes the current state (a slow subscriber).
  func send(_ bytes: [UInt8], isReply: Bool) {
    // Nothing can reach a peer that went away.
    if !state.peerGone {
      guard output.send(bytes, isReply: isReply, to: socket) else { return hangUp(serveLater: true) }
    }
    if output.retainedBytes > Self.outputLimit {
      if output.hasPendingReply {
        server.stalledReplyWarning.warn(
          "dropped a client that stopped reading its replies (pid \(peer?.pid ?? 0)): "
            + "over \(Self.outputLimit / 1024) KiB waiting")
        return server.drop(self)
      }
      server.overflowWarning.warn(
        "a subscriber is not reading (pid \(peer?.pid ?? 0)); its backlog is now the current state")
      output.collapse(to: [session.renderedState()])
    }
    updateInterest()
  }

  /// Watches for output room while output waits, and reads a client's input only when
  /// `ConnectionState` says it may.
  private func updateInterest() {
    guard let watch else { return }
    let wantWritable = output.hasPendingOutput
    let wantReadable = state.wantsInput(hasUnservedInput: hasUnservedInput, outputPilingUp: outputPilingUp)
    guard wantWritable != watchingWritable || wantReadable != watchingReadable else { return }
    watchingWritable = wantWritable
    watchingReadable = wantReadable
    var events: IOEvents = []
    if wantReadable { events.insert(.readable) }
    if wantWritable { events.insert(.writable) }
    do {
      try loop.change(watch, to: events)
    } catch {
      // The loop cannot watch for what the client needs (the kernel is out of memory): its
      // output would never be sent nor its input read, so it is dropped as if it hung up.
      hangUp(serveLater: true)
    }
  }

  private func stopWatching() {
    if let watch { loop.unwatch(watch) }
    watch = nil
  }
}
