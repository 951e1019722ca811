import OrientCore
import OrientSystem

/// One connected client: its pending output, its partial input and its settings.
///
/// Output goes straight to the socket when it can; what the socket does not take waits
/// in a bounded queue of whole messages, so a line is never interleaved with another.
final class ClientConnection {
  /// One queued message and whether it answers a command.
  private struct Message {
    var bytes: [UInt8]
    var isReply: Bool
  }

  let socket: FileDescriptor
  let peer: PeerCredentials?
  var watch: Watch?
  var format = MessageFormat.text
  /// The samples this client asked for, if any.
  var sampleStream: SampleStream?
  var splitter = LineSplitter(limit: 1024)
  /// Set once the client may not send more: its queue is flushed, then it is closed.
  var closing = false
  /// Set when the client shut down its sending side; it may still be subscribed.
  var inputClosed = false
  /// Whether the client may run control commands, decided on its first one.
  var mayControl: Bool?
  /// Whether the loop watches for writability (output is waiting).
  var watchingWritable = false
  /// Whether the loop watches for input (off while the client does not read its output).
  var watchingReadable = true

  private var queue: [Message] = []
  private var head = 0
  private var sentOfHead = 0
  private(set) var queuedBytes = 0

  init(socket: consuming FileDescriptor) {
    peer = socket.peerCredentials()
    self.socket = socket
  }

  /// The socket's number, which names the client in the server's table.
  var descriptor: Int32 { socket.rawValue }

  /// Whether output is waiting for the socket.
  var hasPendingOutput: Bool { head < queue.count }

  /// Whether a reply is among the waiting output.
  var hasPendingReply: Bool { queue[head...].contains { $0.isReply } }

  /// Queues `bytes` behind what is waiting, or writes them at once if nothing is.
  /// Returns false when the socket failed and the client must be dropped.
  func send(_ bytes: [UInt8], isReply: Bool) -> Bool {
    queue.append(Message(bytes: bytes, isReply: isReply))
    queuedBytes += bytes.count
    if queue.count - head == 1 { return flush() }
    return true
  }

  /// Writes as much waiting output as the socket takes; false when the socket failed.
  func flush() -> Bool {
    while head < queue.count {
      let message = queue[head]
      let sent: Int?
      do {
        sent = try socket.send(message.bytes[sentOfHead...])
      } catch {
        return false
      }
      // The socket's buffer is full: the rest waits until it is writable.
      guard let written = sent else { return true }
      sentOfHead += written
      queuedBytes -= written
      guard sentOfHead == message.bytes.count else { continue }
      head += 1
      sentOfHead = 0
    }
    queue.removeAll(keepingCapacity: false)
    head = 0
    return true
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
    queuedBytes = queue.reduce(0) { $0 + $1.bytes.count }
  }
}
