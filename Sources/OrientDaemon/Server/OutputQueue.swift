import OrientSystem

/// What waits to be written to one client, in whole messages.
///
/// Output goes straight to the socket when it can; what the socket does not take waits in a
/// queue of whole messages, so a line is never interleaved with another. A message leaves
/// the queue, and its memory is freed, as soon as its last byte is sent.
struct OutputQueue {
  /// One queued message and whether it answers a command.
  private struct Message {
    var bytes: [UInt8]
    var isReply: Bool
  }

  /// What a queued message costs beyond its bytes: the array's header and the allocator's
  /// rounding. Counted so that a flood of tiny replies (`pong`) is bounded too.
  static let messageOverhead = 64

  private var queue: [Message] = []
  private var head = 0
  private var sentOfHead = 0
  /// Bytes not yet sent plus `messageOverhead` per queued message: what the client costs.
  private(set) var retainedBytes = 0

  /// Whether output is waiting for the socket.
  var hasPendingOutput: Bool { head < queue.count }

  /// Whether a reply is among the waiting output.
  var hasPendingReply: Bool { queue[head...].contains { $0.isReply } }

  /// Queues `bytes` behind what is waiting, or writes them to `socket` at once if nothing is.
  /// Returns false when the socket failed and the client must be dropped.
  mutating func send(_ bytes: [UInt8], isReply: Bool, to socket: borrowing FileDescriptor) -> Bool {
    queue.append(Message(bytes: bytes, isReply: isReply))
    retainedBytes += bytes.count + Self.messageOverhead
    if queue.count - head == 1 { return flush(to: socket) }
    return true
  }

  /// Writes as much waiting output as `socket` takes; false when the socket failed.
  mutating func flush(to socket: borrowing FileDescriptor) -> Bool {
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
  private mutating func compact() {
    if head == queue.count {
      queue.removeAll(keepingCapacity: queue.capacity <= 64)
      head = 0
    } else if head >= 32, head * 2 >= queue.count {
      queue.removeFirst(head)
      head = 0
    }
  }

  /// Forgets all waiting output: the peer went away.
  mutating func discard() {
    queue = []
    head = 0
    sentOfHead = 0
    retainedBytes = 0
  }

  /// Drops every waiting message except the unsent rest of one already begun, then queues
  /// `replacement`: a slow subscriber gets the current state instead of a long backlog.
  mutating func collapse(to replacement: [[UInt8]]) {
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
