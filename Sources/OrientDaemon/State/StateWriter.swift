import OrientCore
import OrientSystem

/// Saves the lock and the allowed set on a thread of its own ("orientd-state"), so that no
/// open, fsync or rename ever runs on the main loop, and coalesced, so that a flood of
/// control commands costs a few writes a second (four), not one per command.
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
    case save(PersistedState, generation: UInt64)
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

  /// Asks for `state` to be saved; returns the generation whose outcome says when it is.
  func save(_ state: PersistedState) -> UInt64 {
    generation += 1
    requests.post(.save(state, generation: generation))
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
  fileprivate var mailboxKind: MailboxKind {
    switch self {
    case .save: return MailboxKind("state to save", limit: 1)
    case .stop: return MailboxKind("stop", limit: 1)
    }
  }
}

/// The writer thread's work, on the thread's own loop.
private final class StateWriterEngine {
  private let store: StateStore
  private let writesPerSecond: Int
  private let requests: Mailbox<StateWriter.Request>
  private let outcomes: Mailbox<StateWriter.Outcome>
  private var pending: (state: PersistedState, generation: UInt64)?
  /// When the last writes began, oldest first; at most `writesPerSecond` of them.
  private var recentWrites: [MonotonicInstant] = []
  private var timerArmed = false

  init(
    store: StateStore, writesPerSecond: Int, requests: Mailbox<StateWriter.Request>,
    outcomes: Mailbox<StateWriter.Outcome>
  ) {
    self.store = store
    self.writesPerSecond = max(1, writesPerSecond)
    self.requests = requests
    self.outcomes = outcomes
  }

  func run() {
    do {
      let loop = try EventLoop()
      let timer = LoopTimer(loop: loop) { [unowned self] _ in
        self.timerArmed = false
        self.write()
      }
      let watch = try requests.deliver(on: loop) { [unowned self] request in
        switch request {
        case .save(let state, let generation):
          self.pending = (state, generation)
          self.writeWhenDue(timer)
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

  /// Writes now if fewer than `writesPerSecond` writes began in the last second, else arms
  /// the timer for when the oldest of them is a second old.
  private func writeWhenDue(_ timer: LoopTimer) {
    guard !timerArmed else { return }
    if recentWrites.count >= writesPerSecond, let oldest = recentWrites.first, oldest.elapsed < .seconds(1) {
      timerArmed = true
      timer.schedule(at: oldest + .seconds(1))
    } else {
      write()
    }
  }

  private func write() {
    guard let (state, generation) = pending else { return }
    pending = nil
    recentWrites.append(.now)
    if recentWrites.count > writesPerSecond { recentWrites.removeFirst() }
    do {
      try store.save(state)
      outcomes.post(.saved(generation: generation))
    } catch {
      outcomes.post(.failed(generation: generation, reason: "\(error)"))
    }
  }
}
