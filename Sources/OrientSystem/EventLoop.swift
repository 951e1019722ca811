import CLinux
import Glibc

/// Readiness flags for `EventLoop.watch`.
public struct IOEvents: OptionSet, Sendable {
  public let rawValue: UInt32
  public init(rawValue: UInt32) { self.rawValue = rawValue }

  public static let readable = IOEvents(rawValue: UInt32(EPOLLIN.rawValue))
  public static let writable = IOEvents(rawValue: UInt32(EPOLLOUT.rawValue))
  public static let hangUp = IOEvents(rawValue: UInt32(EPOLLHUP.rawValue))
  public static let error = IOEvents(rawValue: UInt32(EPOLLERR.rawValue))
}

/// A watched descriptor; pass it back to `EventLoop.unwatch` or `EventLoop.change`.
public struct Watch: Hashable, Sendable {
  fileprivate let token: UInt64
  /// The descriptor being watched.
  public let descriptor: Int32
}

/// A single-threaded epoll loop that runs on the main thread.
///
/// Every descriptor's handler runs on the loop's thread, one at a time, so the
/// daemon's state needs no locks. The loop sleeps in epoll_wait and wakes only
/// for ready descriptors: timers are timerfds, signals a signalfd.
public final class EventLoop {
  private let epoll: Int32
  private var handlers: [UInt64: (IOEvents) -> Void] = [:]
  private var nextToken: UInt64 = 1
  private var stopping = false

  /// Creates an epoll instance.
  public init() throws(SystemError) {
    epoll = epoll_create1(Int32(EPOLL_CLOEXEC))
    guard epoll >= 0 else { throw SystemError("epoll_create1") }
  }

  deinit { _ = Glibc.close(epoll) }

  /// Calls `handler` on the loop whenever `descriptor` is ready for `events`.
  public func watch(
    _ descriptor: Int32, for events: IOEvents = .readable, handler: @escaping (IOEvents) -> Void
  ) throws(SystemError) -> Watch {
    let token = nextToken
    nextToken += 1
    guard clinux_epoll_ctl(epoll, EPOLL_CTL_ADD, descriptor, events.rawValue, token) == 0 else {
      throw SystemError("epoll_ctl add fd \(descriptor)")
    }
    handlers[token] = handler
    return Watch(token: token, descriptor: descriptor)
  }

  /// Changes which events a watched descriptor is reported for.
  public func change(_ watch: Watch, to events: IOEvents) {
    _ = clinux_epoll_ctl(epoll, EPOLL_CTL_MOD, watch.descriptor, events.rawValue, watch.token)
  }

  /// Stops watching; call it before closing the descriptor.
  public func unwatch(_ watch: Watch) {
    _ = clinux_epoll_ctl(epoll, EPOLL_CTL_DEL, watch.descriptor, 0, 0)
    handlers[watch.token] = nil
  }

  /// Makes `run` return after the current round of handlers.
  public func stop() { stopping = true }

  /// Dispatches ready descriptors until `stop` is called.
  public func run() throws(SystemError) {
    stopping = false
    var flags = [UInt32](repeating: 0, count: 64)
    var tokens = [UInt64](repeating: 0, count: 64)
    while !stopping {
      let count = clinux_epoll_wait(epoll, &flags, &tokens, 64, -1)
      if count < 0 {
        if errno == EINTR { continue }
        throw SystemError("epoll_wait")
      }
      for index in 0..<Int(count) {
        // A handler may have unwatched a later descriptor in this round: look it up each time.
        guard let handler = handlers[tokens[index]] else { continue }
        handler(IOEvents(rawValue: flags[index]))
      }
    }
  }
}
