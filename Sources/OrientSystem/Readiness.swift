import Glibc

/// Waiting for a few descriptors at once without an event loop, as a blocking client does.
package enum Readiness {
  /// Waits up to `timeout` (nil: no limit; rounded up to whole milliseconds) until one of `descriptors` is
  /// ready for its events, and returns what each one is ready for (empty for those that are
  /// not). Errors and hang-ups are always reported.
  package static func wait(
    _ descriptors: [(descriptor: Int32, events: IOEvents)], timeout: Duration?
  ) throws(SystemError) -> [IOEvents] {
    var entries = descriptors.map {
      pollfd(fd: $0.descriptor, events: Int16($0.events.pollFlags), revents: 0)
    }
    let milliseconds = timeout?.millisecondsRoundedUp ?? -1
    _ = try systemCall("poll") { poll(&entries, nfds_t(entries.count), milliseconds) }
    return entries.map { IOEvents(pollFlags: $0.revents) }
  }
}

extension IOEvents {
  fileprivate var pollFlags: Int32 {
    (contains(.readable) ? Int32(POLLIN) : 0) | (contains(.writable) ? Int32(POLLOUT) : 0)
  }

  fileprivate init(pollFlags flags: Int16) {
    var events: IOEvents = []
    if Int32(flags) & Int32(POLLIN) != 0 { events.insert(.readable) }
    if Int32(flags) & Int32(POLLOUT) != 0 { events.insert(.writable) }
    if Int32(flags) & Int32(POLLHUP) != 0 { events.insert(.hangUp) }
    if Int32(flags) & Int32(POLLERR | POLLNVAL) != 0 { events.insert(.error) }
    self = events
  }
}
