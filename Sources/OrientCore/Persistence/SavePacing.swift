/// When the state file may be written: at most `writesPerSecond` writes begin in any second
/// for each requester (a client's user; nil for the daemon itself), so that a flood of one
/// user's changes is coalesced into that many writes a second while another user's change is
/// written at once. Each write saves the newest state, so it serves every requester waiting.
///
/// Pure: times are the caller's, as durations since any fixed start.
package struct SavePacing: Sendable {
  /// What to do after a request.
  package enum Step: Equatable, Sendable {
    /// Write now.
    case writeNow
    /// Write at this time (arm the timer for it, replacing any armed).
    case writeAt(Duration)
  }

  /// Writes that may begin for one requester in any second.
  package let writesPerSecond: Int
  /// When writes began, within the last second, by the requester they served.
  private var recent: [UInt32?: [Duration]] = [:]
  /// Requesters whose change waits for a write.
  private var waiting: Set<UInt32?> = []

  /// Pacing with at most `writesPerSecond` writes a second for each requester.
  package init(writesPerSecond: Int) { self.writesPerSecond = max(1, writesPerSecond) }

  /// `requester` asked for a save at `now`.
  package mutating func request(from requester: UInt32?, at now: Duration) -> Step {
    waiting.insert(requester)
    forgetOld(at: now)
    if recent[requester, default: []].count < writesPerSecond { return .writeNow }
    return .writeAt(nextWrite)
  }

  /// A write began at `now`: it serves every requester waiting, and counts against each.
  package mutating func wrote(at now: Duration) {
    forgetOld(at: now)
    for requester in waiting { recent[requester, default: []].append(now) }
    waiting = []
  }

  /// Whether a change waits for a write.
  package var hasWaiting: Bool { !waiting.isEmpty }

  /// The earliest time a waiting requester may have a write again.
  private var nextWrite: Duration {
    waiting.map { requester -> Duration in
      let times = recent[requester, default: []]
      return times.count < writesPerSecond ? .zero : times[times.count - writesPerSecond] + .seconds(1)
    }.min() ?? .zero
  }

  /// Drops write times more than a second old, and requesters left with none.
  private mutating func forgetOld(at now: Duration) {
    for (requester, times) in recent {
      let kept = times.filter { now - $0 < .seconds(1) }
      recent[requester] = kept.isEmpty ? nil : kept
    }
  }
}
