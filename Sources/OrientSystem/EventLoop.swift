import CLinux

/// Readiness flags for `EventLoop.watch`.
package struct IOEvents: OptionSet, Sendable {
  package let rawValue: UInt32
  package init(rawValue: UInt32) { self.rawValue = rawValue }

  package static let readable = IOEvents(rawValue: UInt32(EPOLLIN.rawValue))
  package static let writable = IOEvents(rawValue: UInt32(EPOLLOUT.rawValue))
  package static let hangUp = IOEvents(rawValue: UInt32(EPOLLHUP.rawValue))
  package static let error = IOEvents(rawValue: UInt32(EPOLLERR.rawValue))
}

/// A watched descriptor; pass it back to `EventLoop.unwatch` or `EventLoop.change`.
package struct Watch: Hashable, Sendable {
  fileprivate let token: UInt64
  /// The descriptor being watched.
  package let descriptor: Int32
}

/// A single-threaded epoll loop: each thread that waits for events runs its own.
///
/// Every descriptor's and timer's handler runs on the thread that called `run`, one at a
/// time, so what the handlers touch needs no locks. Other threads reach a loop only through
/// a `Mailbox`. The loop sleeps in epoll_wait and wakes only
/// for ready descriptors and due timers. Timers are deadlines the loop keeps itself
/// and turns into epoll_wait's timeout: a periodic poll costs one wake-up and no
/// system call beyond the wait, where a timerfd would add a read on every tick.
package final class EventLoop {
  /// A timer's next expiry, and its period in nanoseconds (0: once).
  private struct ArmedTimer {
    let token: UInt64
    var deadline: MonotonicInstant
    var interval: UInt64
    let handler: (UInt64) -> Void
  }

  private let epoll: FileDescriptor
  private var handlers: [UInt64: (IOEvents) -> Void] = [:]
  /// Few timers are armed at once (a poll, a settle, a hook's timeout), so a scan beats a heap.
  private var armedTimers: [ArmedTimer] = []
  private var nextToken: UInt64 = 1
  private var stopping = false
  /// Where the loop reads the time: CLOCK_MONOTONIC in the daemon; a test drives timers and
  /// idle limits with a clock of its own, without waiting for real time to pass.
  private let clock: () -> MonotonicInstant
  /// What one wait reports: each ready descriptor's events and token.
  private let readyFlags = UnsafeMutableBufferPointer<UInt32>.allocate(capacity: 64)
  private let readyTokens = UnsafeMutableBufferPointer<UInt64>.allocate(capacity: 64)

  /// When the current round of handlers started.
  ///
  /// Read once per wake-up, so a periodic handler need not read the clock again.
  package private(set) var now: MonotonicInstant

  /// The time now, read afresh: where a timer's delay counts from.
  package var currentTime: MonotonicInstant { clock() }

  /// Whether this loop waits with epoll_wait's whole milliseconds, because epoll_pwait2 is
  /// missing (Linux < 5.11) or a seccomp filter written before it refuses it (EPERM).
  ///
  /// Decided by the loop's first timed wait and kept for its life; other loops decide for themselves.
  private(set) var waitsInMilliseconds = false

  /// Creates an epoll instance whose timers and `now` follow `clock` (CLOCK_MONOTONIC unless
  /// a test scripts the time).
  package init(clock: @escaping () -> MonotonicInstant = { .now }) throws(SystemError) {
    self.clock = clock
    now = clock()
    epoll = FileDescriptor(adopting: try systemCall("epoll_create1") { epoll_create1(Int32(EPOLL_CLOEXEC)) })
  }

  deinit {
    readyFlags.deallocate()
    readyTokens.deallocate()
  }

  /// Calls `handler` on the loop whenever `descriptor` is ready for `events`.
  ///
  /// The descriptor's owner keeps it open until it calls `unwatch`.
  package func watch(
    _ descriptor: Int32, for events: IOEvents = .readable, handler: @escaping (IOEvents) -> Void
  ) throws(SystemError) -> Watch {
    let token = nextToken
    nextToken += 1
    _ = try systemCall("epoll_ctl add fd \(descriptor)") {
      clinux_epoll_ctl(epoll.rawValue, EPOLL_CTL_ADD, descriptor, events.rawValue, token)
    }
    handlers[token] = handler
    return Watch(token: token, descriptor: descriptor)
  }

  /// Changes which events a watched descriptor is reported for. It fails only when the kernel
  /// is out of memory or the descriptor was closed while watched; the owner then cannot rely
  /// on the events it asked for and must give the descriptor up or try again.
  package func change(_ watch: Watch, to events: IOEvents) throws(SystemError) {
    _ = try systemCall("epoll_ctl modify fd \(watch.descriptor)") {
      clinux_epoll_ctl(epoll.rawValue, EPOLL_CTL_MOD, watch.descriptor, events.rawValue, watch.token)
    }
  }

  /// Stops watching; call it before closing the descriptor.
  ///
  /// The handler goes whatever epoll answers, so nothing can run for this watch again. The
  /// removal itself fails only for a descriptor already closed (EBADF: epoll forgot it with
  /// its last reference) or never added (ENOENT): either way there is nothing left to undo,
  /// which is why this does not throw.
  package func unwatch(_ watch: Watch) {
    _ = clinux_epoll_ctl(epoll.rawValue, EPOLL_CTL_DEL, watch.descriptor, 0, 0)
    handlers[watch.token] = nil
  }

  // MARK: Timers (used by LoopTimer)

  func newTimerToken() -> UInt64 {
    defer { nextToken += 1 }
    return nextToken
  }

  func armTimer(
    _ token: UInt64, deadline: MonotonicInstant, interval: UInt64, handler: @escaping (UInt64) -> Void
  ) {
    disarmTimer(token)
    armedTimers.append(ArmedTimer(token: token, deadline: deadline, interval: interval, handler: handler))
  }

  func disarmTimer(_ token: UInt64) {
    armedTimers.removeAll { $0.token == token }
  }

  /// Nanoseconds until the earliest armed deadline (zero when it has passed); nil when no
  /// timer is armed.
  ///
  /// In the clock's own nanoseconds rather than a `Duration`: this runs at every wake-up, and
  /// `Duration`'s 128-bit arithmetic was a visible share of a poll's user time.
  private func nanosecondsUntilNextTimer() -> Int64? {
    guard var earliest = armedTimers.first?.deadline.nanoseconds else { return nil }
    for timer in armedTimers where timer.deadline.nanoseconds < earliest {
      earliest = timer.deadline.nanoseconds
    }
    // A fresh reading, not `now`: a slow handler in this round must not delay the next timer.
    let current = clock().nanoseconds
    return earliest > current ? Int64(clamping: earliest - current) : 0
  }

  /// Runs the handler of every timer that is due, each with its number of expirations.
  private func fireDueTimers() {
    // A handler may arm, disarm or remove timers: look for the next due one afresh each time.
    // Each fired timer moves past `now` or is disarmed, so this ends.
    var index = 0
    while index < armedTimers.count {
      let timer = armedTimers[index]
      guard timer.deadline <= now else {
        index += 1
        continue
      }
      var expirations: UInt64 = 1
      if timer.interval > 0 {
        expirations += (now.nanoseconds - timer.deadline.nanoseconds) / timer.interval
        armedTimers[index].deadline = MonotonicInstant(
          nanoseconds: timer.deadline.nanoseconds + expirations * timer.interval)
      } else {
        armedTimers.remove(at: index)
      }
      timer.handler(expirations)
      if stopping { return }
      index = 0
    }
  }

  /// One wait for ready descriptors, at most `timeout` nanoseconds (nil: no limit); the
  /// number of ready descriptors, or -1 with errno set.
  private func wait(
    _ flags: UnsafeMutableBufferPointer<UInt32>, _ tokens: UnsafeMutableBufferPointer<UInt64>,
    timeout: Int64?
  ) -> Int32 {
    if let timeout, !waitsInMilliseconds {
      let count = clinux_epoll_pwait2(epoll.rawValue, flags.baseAddress, tokens.baseAddress, 64, timeout)
      // errno is read only when the wait failed: it is the one place a wake-up would touch it.
      guard count < 0 else { return count }
      let code = Errno.current
      guard code == .notImplemented || code == .permissionDenied else { return count }
      waitsInMilliseconds = true
      Log.debug("epoll_pwait2 is unavailable (\(code)); timers wait in whole milliseconds")
    }
    // Whole milliseconds, rounded up so a timer never fires early.
    let milliseconds = timeout.map { millisecondsRoundedUp(nanoseconds: $0) } ?? -1
    return clinux_epoll_wait(epoll.rawValue, flags.baseAddress, tokens.baseAddress, 64, milliseconds)
  }

  /// Makes `run` return after the current round of handlers.
  package func stop() { stopping = true }

  /// Whether `stop` was called since `run` last began: `run` returns after this round. Whoever
  /// turns the loop a round at a time asks it to know when the run would have ended.
  package var isStopping: Bool { stopping }

  /// Dispatches ready descriptors until `stop` is called.
  package func run() throws(SystemError) {
    stopping = false
    while !stopping { try runRound { nanosecondsUntilNextTimer() } }
  }

  /// Runs one round of `run`: waits for ready descriptors or the next due timer, but at most
  /// `limit`, and runs their handlers. Whoever owns the loop's thread can drive it a round at
  /// a time (a test serving a socket in its own process does) instead of handing it to `run`.
  package func runRound(waitingAtMost limit: Duration) throws(SystemError) {
    let cap = max(0, limit.wholeNanoseconds)
    try runRound { min(nanosecondsUntilNextTimer() ?? cap, cap) }
  }

  /// One wait of at most `timeout()` nanoseconds (nil: until a descriptor is ready), then the
  /// handlers of what is ready and of the timers that are due.
  private func runRound(timeout: () -> Int64?) throws(SystemError) {
    // After an interruption the timeout is worked out afresh.
    let count = try systemCall("epoll_wait") { wait(readyFlags, readyTokens, timeout: timeout()) }
    now = clock()
    for index in 0..<Int(count) {
      // A handler may have unwatched a later descriptor in this round: look it up each time.
      guard let handler = handlers[readyTokens[index]] else { continue }
      handler(IOEvents(rawValue: readyFlags[index]))
    }
    if !stopping, !armedTimers.isEmpty { fireDueTimers() }
  }
}
