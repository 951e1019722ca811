import OrientCore
import OrientSystem

/// One connected client: its pending output, the input it sent and we have not served yet,
/// and its settings.
///
/// Output goes straight to the socket when it can; what the socket does not take waits in a
/// queue of whole messages, so a line is never interleaved with another. A message leaves
/// the queue, and its memory is freed, as soon as its last byte is sent.
final class ClientConnection {
  /// One queued message and whether it answers a command.
  private struct Message {
    var bytes: [UInt8]
    var isReply: Bool
  }

  /// What a queued message costs beyond its bytes: the array's header and the allocator's
  /// rounding. Counted so that a flood of tiny replies (`pong`) is bounded too.
  static let messageOverhead = 64

  let socket: FileDescriptor
  let peer: PeerCredentials?
  /// When the connection was accepted.
  let connectedAt: MonotonicInstant
  var watch: Watch?
  var format = MessageFormat.text
  /// The samples this client asked for, if any.
  var sampleStream: SampleStream?
  var splitter = LineSplitter(limit: 1024)
  /// Set once the client may not send more: its queue is flushed, then it is closed.
  var closing = false
  /// Set when the client shut down its sending side; it may still be subscribed.
  var inputClosed = false
  /// Set when the peer hung up both ways: what it sent is still served, nothing more is sent.
  var peerGone = false
  /// Whether the client may run control commands, decided on its first one.
  var mayControl: Bool?
  /// Whether the client has sent a whole line yet.
  var hasSentCommand = false
  /// The state commit this client's last control command waits for; its `ok` and its
  /// further commands wait until that commit is durable.
  var awaitingCommit: UInt64?
  /// What waits for a state that is current again (sampling resumes after an idle stretch):
  /// the greeting, or a `get`'s reply. The client is not served meanwhile.
  var awaitingFresh: FreshWait?
  /// Whether the client waits for a commit or for a fresh state, and is not served meanwhile.
  var isWaiting: Bool { awaitingCommit != nil || awaitingFresh != nil }
  /// The changes this client receives (`subscribe`); the server sets everything when it
  /// accepts the client (and counts it then), until the client says otherwise.
  var subscription: Subscription = []
  /// Whether the loop watches for writability (output is waiting).
  var watchingWritable = false
  /// Whether the loop watches for input.
  var watchingReadable = true

  private var queue: [Message] = []
  private var head = 0
  private var sentOfHead = 0
  /// Bytes not yet sent plus `messageOverhead` per queued message: what the client costs.
  private(set) var retainedBytes = 0
  /// Bytes received and not yet cut into lines (at most one read's worth: nothing is read
  /// while any wait), so waiting input costs its bytes and no more.
  private var received: [UInt8] = []
  private var nextReceived = 0
  /// Lines served since the peer went away; a gone peer gets one round's worth at most.
  var servedAfterGone = 0

  init(socket: consuming FileDescriptor, now: MonotonicInstant) {
    peer = socket.peerCredentials()
    self.socket = socket
    connectedAt = now
  }

  /// The socket's number, which names the client in the server's table.
  var descriptor: Int32 { socket.rawValue }

  /// Whether output is waiting for the socket.
  var hasPendingOutput: Bool { head < queue.count }

  /// Whether a reply is among the waiting output.
  var hasPendingReply: Bool { queue[head...].contains { $0.isReply } }

  /// Whether bytes received earlier still wait to be served.
  var hasUnservedInput: Bool { nextReceived < received.count }

  /// Keeps bytes just read, to be cut into lines and served a few per loop round.
  func receive(_ bytes: UnsafeRawBufferPointer) {
    received = Array(bytes)
    nextReceived = 0
  }

  /// The next whole line of what was received (or `.tooLong`), if any; the rest of an
  /// unfinished line goes to the splitter, which holds at most its limit.
  func nextLine() -> SplitLine? {
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

  /// Queues `bytes` behind what is waiting, or writes them at once if nothing is.
  /// Returns false when the socket failed and the client must be dropped.
  func send(_ bytes: [UInt8], isReply: Bool) -> Bool {
    // Nothing can reach a peer that went away.
    guard !peerGone else { return true }
    queue.append(Message(bytes: bytes, isReply: isReply))
    retainedBytes += bytes.count + Self.messageOverhead
    if queue.count - head == 1 { return flush() }
    return true
  }

  /// Writes as much waiting output as the socket takes; false when the socket failed.
  func flush() -> Bool {
    defer { compact() }
    while head < queue.count {
      let sent: Int?
      do {
        sent = try socket.send(queue[head].bytes[sentOfHead...])
      } catch {
        return false
      }
      // The socket's buffer is full: the rest waits until it is writable.
      guard let written = sent else { return true }
      sentOfHead += written
      retainedBytes -= written
      guard sentOfHead == queue[head].bytes.count else { continue }
      // Sent whole: its memory goes now, not when the queue next runs empty.
      queue[head].bytes = []
      retainedBytes -= Self.messageOverhead
      head += 1
      sentOfHead = 0
    }
    return true
  }

  /// Drops the sent messages from the front of the queue once they are half of it, so the
  /// queue's own storage stays proportional to what waits.
  private func compact() {
    if head == queue.count {
      queue.removeAll(keepingCapacity: queue.capacity <= 64)
      head = 0
    } else if head >= 32, head * 2 >= queue.count {
      queue.removeFirst(head)
      head = 0
    }
  }

  /// Forgets all waiting output: the peer went away.
  func discardOutput() {
    queue = []
    head = 0
    sentOfHead = 0
    retainedBytes = 0
  }

  /// Drops every waiting message except the unsent rest of one already begun, then queues
  /// `replacement`: a slow subscriber gets the current state instead of a long backlog.
  func collapse(to replacement: [[UInt8]]) {
    var kept: [Message] = []
    if head < queue.count, sentOfHead > 0 {
      kept.append(Message(bytes: Array(queue[head].bytes[sentOfHead...]), isReply: false))
    }
    queue = kept + replacement.map { Message(bytes: $0, isReply: false) }
    head = 0
    sentOfHead = 0
    retainedBytes = queue.reduce(0) { $0 + $1.bytes.count + Self.messageOverhead }
  }
}

/// What a client waits to be sent once the state is current.
enum FreshWait {
  case greeting
  case getReply
}
