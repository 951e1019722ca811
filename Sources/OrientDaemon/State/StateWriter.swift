import OrientCore
import OrientSystem

/// Saves the lock and the allowed set on a thread of its own ("orientd-state"), so that no
/// open, fsync or rename ever runs on the main loop, and coalesced, so that a flood of
/// control commands costs a few writes a second (four for each user, `SavePacing`), not one
/// per command, and one user's flood never delays another user's save.
///
/// Every save request gets a generation number. A write saves the newest state asked for,
/// and its outcome covers every generation up to that one: the daemon answers `ok` to a
/// command only once the generation that holds its change is durable, so `kill -9` keeps
/// every acknowledged change.
final class StateWriter {
  /// What became of the writes: every state up to `generation` is on disk, or the write
  /// that would have saved it failed (the state stays in memory).
  enum Outcome: Sendable {
    case saved(generation: UInt64)
    case failed(generation: UInt64, reason: String)
    /// The thread could not start its loop and saves nothing; the daemon must save itself.
    case unavailable(reason: String)
  }

  fileprivate enum Request: Sendable {
    /// Save `state` for the client of user `requester` (nil: for the daemon itself).
    case save(PersistedState, generation: UInt64, requester: UInt32?)
    case stop
  }

  /// Outcomes for the main loop, in generation order.
  let outcomes: Mailbox<Outcome>
  private let requests: Mailbox<Request>
  private let thread: WorkerThread
  private var generation: UInt64 = 0

  /// Starts the thread; at most `writesPerSecond` writes begin in any one second, so a few
  /// quick commands are each saved at once and a flood is saved that many times a second.
  init(store: StateStore, writesPerSecond: Int) throws(SystemError) {
    // A newer request or outcome of a kind covers every older one, so one of each waits.
    let outcomes = try Mailbox<Outcome>(kind: \.mailboxKind)
    let requests = try Mailbox<Request>(kind: \.mailboxKind)
    self.outcomes = outcomes
    self.requests = requests
    thread = try WorkerThread(name: "orientd-state") {
      StateWriterEngine(
        store: store, writesPerSecond: writesPerSecond, requests: requests, outcomes: outcomes
      )
      .run()
    }
  }

  /// Asks for `state` to be saved for a client of user `requester` (nil: for the daemon
  /// itself); returns the generation whose outcome says when it is.
  func save(_ state: PersistedState, for requester: UInt32?) -> UInt64 {
    generation += 1
    requests.post(.save(state, generation: generation, requester: requester))
    return generation
  }

  /// Writes what is still waiting, then ends the thread; waits up to 5 s for it.
  func stop() {
    requests.post(.stop)
    if !thread.join(within: .seconds(5)) {
      Log.warning("the state writer did not finish within 5 s (a slow disk); exiting anyway")
    }
  }
}

extension StateWriter.Outcome {
  fileprivate var mailboxKind: MailboxKind {
    switch self {
    case .saved: return MailboxKind("state saved", limit: 1)
    case .failed: return MailboxKind("state not saved", limit: 1)
    case .unavailable: return MailboxKind("state writer unavailable", limit: 1)
    }
  }
}

extension StateWriter.Request {
  /// A newer save of the same requester covers the older one; each requester's newest is
  /// kept, so that the pacing knows whom a write serves. Requesters are users: few.
  fileprivate var mailboxKind: MailboxKind {
    switch self {
    case .save(_, _, let requester):
      return MailboxKind("state to save for \(requester.map(String.init) ?? "orientd")", limit: 1)
    case .stop: return MailboxKind("stop", limit: 1)
    }
  }
}

/// The writer thread's work, on the thread's own loop.
private final class StateWriterEngine {
  private let store: StateStore
  private let requests: Mailbox<StateWriter.Request>
  private let outcomes: Mailbox<StateWriter.Outcome>
  private var pending: (state: PersistedState, generation: UInt64)?
  private var pacing: SavePacing
  /// The instant the pacing's times count from.
  private let start = MonotonicInstant.now

  init(
    store: StateStore, writesPerSecond: Int, requests: Mailbox<StateWriter.Request>,
    outcomes: Mailbox<StateWriter.Outcome>
  ) {
    self.store = store
    pacing = SavePacing(writesPerSecond: writesPerSecond)
    self.requests = requests
    self.outcomes = outcomes
  }

  func run() {
    do {
      let loop = try EventLoop()
      let timer = LoopTimer(loop: loop) { [unowned self] _ in self.write() }
      let watch = try requests.deliver(on: loop) { [unowned self] request in
        switch request {
        case .save(let state, let generation, let requester):
          if generation > self.pending?.generation ?? 0 { self.pending = (state, generation) }
          switch self.pacing.request(from: requester, at: MonotonicInstant.now - self.start) {
          case .writeNow:
            timer.cancel()
            self.write()
          case .writeAt(let due):
            timer.schedule(at: self.start + due)
          }
        case .stop:
          self.write()
          loop.stop()
        }
      }
      try loop.run()
      loop.unwatch(watch)
    } catch {
      // Only running out of descriptors or memory gets here; the daemon then saves on its
      // own loop, which is slower under a flood but loses nothing.
      outcomes.post(.unavailable(reason: "\(error)"))
    }
  }

  /// Writes the newest state asked for; it serves every request waiting.
  private func write() {
    guard let (state, generation) = pending else { return }
    pending = nil
    pacing.wrote(at: MonotonicInstant.now - start)
    do {
      try store.save(state)
      outcomes.post(.saved(generation: generation))
    } catch {
      outcomes.post(.failed(generation: generation, reason: "\(error)"))
    }
  }
}
