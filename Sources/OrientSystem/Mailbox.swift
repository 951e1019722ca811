import CLinux
import Glibc
import Synchronization

/// A queue of messages from other threads to an event loop, with an eventfd to wake it.
///
/// Any thread may post; one loop drains. The only state shared between threads is this
/// queue, behind a mutex.
public final class Mailbox<Message: Sendable>: Sendable {
  private let queue = Mutex<[Message]>([])
  /// The descriptor that becomes readable when messages wait.
  public let descriptor: Int32

  /// Creates an empty mailbox.
  public init() throws(SystemError) {
    descriptor = clinux_eventfd()
    guard descriptor >= 0 else { throw SystemError("eventfd") }
  }

  deinit { close(descriptor) }

  /// Adds a message and wakes the reader.
  public func post(_ message: Message) {
    queue.withLock { $0.append(message) }
    clinux_eventfd_signal(descriptor)
  }

  /// Takes every waiting message, oldest first.
  public func drain() -> [Message] {
    clinux_eventfd_drain(descriptor)
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
    try loop.watch(descriptor) { [self] _ in
      for message in self.drain() { handler(message) }
    }
  }
}
