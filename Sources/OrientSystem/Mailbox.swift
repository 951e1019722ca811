import CLinux
import Synchronization

/// A kind of message in a `Mailbox`, and how many messages of that kind may wait at once.
package struct MailboxKind: Hashable, Sendable {
  /// The kind's name, for messages about it.
  package let name: String
  /// At most this many wait; a new one beyond it pushes out the oldest of its kind.
  package let limit: Int

  /// A kind of which at most `limit` (at least 1) messages wait.
  package init(_ name: String, limit: Int) {
    self.name = name
    self.limit = max(1, limit)
  }
}

/// A bounded queue of messages from other threads to an event loop, with an eventfd to wake it.
///
/// Any thread may post; one loop drains. The only state shared between threads is this
/// queue, behind a mutex. Every message is of a kind with a limit, so a reader that falls
/// behind never makes the queue grow without bound: once a kind's limit is reached, each new
/// message of that kind replaces the oldest one waiting. Messages come out in the order they
/// were posted.
package final class Mailbox<Message: Sendable>: Sendable {
  private struct Entry {
    let sequence: UInt64
    let message: Message
  }

  private struct Waiting {
    var byKind: [MailboxKind: [Entry]] = [:]
    var nextSequence: UInt64 = 0
    var count = 0
  }

  private let waiting = Mutex(Waiting())
  private let counter: FileDescriptor
  private let kind: @Sendable (Message) -> MailboxKind

  /// Creates an empty mailbox; `kind` sorts each message into its kind.
  package init(kind: @escaping @Sendable (Message) -> MailboxKind) throws(SystemError) {
    self.kind = kind
    counter = FileDescriptor(
      adopting: try systemCall("eventfd") { eventfd(0, Int32(EFD_NONBLOCK | EFD_CLOEXEC)) })
  }

  /// Adds a message and wakes the reader.
  package func post(_ message: Message) { post(message, dropped: {}) }

  /// Adds a message and wakes the reader; calls `dropped` when the oldest waiting message of
  /// its kind was dropped to make room.
  package func post(_ message: Message, dropped: () -> Void) {
    let kind = self.kind(message)
    let kept = waiting.withLock { waiting in
      waiting.byKind[kind, default: []].append(Entry(sequence: waiting.nextSequence, message: message))
      waiting.nextSequence += 1
      guard waiting.byKind[kind, default: []].count > kind.limit else {
        waiting.count += 1
        return true
      }
      waiting.byKind[kind, default: []].removeFirst()
      return false
    }
    // Only a counter at its maximum could refuse the add, and the reader resets it.
    _ = retryingInterrupts { eventfd_write(counter.rawValue, 1) }
    if !kept { dropped() }
  }

  /// How many messages wait now.
  package var count: Int { waiting.withLock { $0.count } }

  /// Takes every waiting message, in the order they were posted.
  package func drain() -> [Message] {
    var count: eventfd_t = 0
    // Fails only when nothing was posted since the last drain.
    _ = retryingInterrupts { eventfd_read(counter.rawValue, &count) }
    let taken = waiting.withLock { waiting in
      let taken = waiting.byKind
      waiting.byKind = [:]
      waiting.count = 0
      return taken
    }
    // Closures, not `\.message`: a key path into a generic type is built anew by the runtime at
    // every use (demangling its type), which was half of what a change cost the main thread.
    if taken.count == 1, let only = taken.first?.value { return only.map { $0.message } }
    return taken.values.joined().sorted { $0.sequence < $1.sequence }.map { $0.message }
  }

  /// Calls `handler` on `loop` with each message as it arrives.
  package func deliver(on loop: EventLoop, to handler: @escaping (Message) -> Void) throws(SystemError)
    -> Watch
  {
    try loop.watch(counter.rawValue) { [self] _ in
      for message in self.drain() { handler(message) }
    }
  }
}
