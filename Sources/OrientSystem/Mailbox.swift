import CLinux
import Synchronization

/// A queue of messages from other threads to an event loop, with an eventfd to wake it.
///
/// Any thread may post; one loop drains. The only state shared between threads is this
/// queue, behind a mutex.
public final class Mailbox<Message: Sendable>: Sendable {
  private let queue = Mutex<[Message]>([])
  private let counter: FileDescriptor

  /// Creates an empty mailbox.
  public init() throws(SystemError) {
    counter = FileDescriptor(
      adopting: try systemCall("eventfd") { eventfd(0, Int32(EFD_NONBLOCK | EFD_CLOEXEC)) })
  }

  /// Adds a message and wakes the reader.
  public func post(_ message: Message) {
    queue.withLock { $0.append(message) }
    // Only a counter at its maximum could refuse the add, and the reader resets it.
    _ = retryingInterrupts { eventfd_write(counter.rawValue, 1) }
  }

  /// Takes every waiting message, oldest first.
  public func drain() -> [Message] {
    var count: eventfd_t = 0
    // Fails only when nothing was posted since the last drain.
    _ = retryingInterrupts { eventfd_read(counter.rawValue, &count) }
    return queue.withLock { messages in
      let taken = messages
      messages.removeAll()
      return taken
    }
  }

  /// Calls `handler` on `loop` with each message as it arrives.
  public func deliver(on loop: EventLoop, to handler: @escaping (Message) -> Void) throws(SystemError)
    -> Watch
  {
    try loop.watch(counter.rawValue) { [self] _ in
      for message in self.drain() { handler(message) }
    }
  }
}
