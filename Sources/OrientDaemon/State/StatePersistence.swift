import OrientCore
import OrientSystem

/// The state kept across restarts (the lock, the allowed set and where it came from, the mode
/// override), saved off the main loop by the `StateWriter` thread, and on the loop itself when
/// that thread cannot run: a save is never lost, only slower.
///
/// A control command's `ok` waits until its change is durable: `save` returns the generation
/// to wait for, and `committed` is called when every save up to a generation is on disk or
/// has failed.
final class StatePersistence {
  /// The state is written at most this many times in any second; a flood of changes is
  /// coalesced into that many writes.
  static let savesPerSecond = 4

  let store: StateStore
  private let loop: EventLoop
  private var writer: StateWriter?
  private var writerWatch: Watch?
  private var saveFailure = RateLimitedWarning()
  /// Called with the newest generation that is durable (`.max`: all), and the failure, if any.
  var committed: (_ generation: UInt64, _ failure: String?) -> Void = { _, _ in }
  /// The state as it is now, saved on the loop when the writer thread stops.
  var current: (() -> PersistedState)?

  /// Saves to `store`, from the loop's thread.
  init(store: StateStore, loop: EventLoop) {
    self.store = store
    self.loop = loop
  }

  /// Starts the writer thread; until then, and without it, saves happen on the loop.
  func startWriter() throws(SystemError) {
    let writer = try StateWriter(store: store, writesPerSecond: Self.savesPerSecond)
    writerWatch = try writer.outcomes.deliver(on: loop) { [unowned self] outcome in self.handle(outcome) }
    self.writer = writer
  }

  /// Saves `state` for a client of user `requester` (nil: for the daemon itself): off the
  /// loop when the writer runs, returning the generation to wait for; else at once, returning
  /// nil (nothing to wait for).
  func save(_ state: PersistedState, for requester: UInt32?) -> UInt64? {
    if let writer { return writer.save(state, for: requester) }
    if let failure = saveNow(state) { Log.error(failure) }
    return nil
  }

  /// Saves on this thread at once; the failure's text, or nil.
  func saveNow(_ state: PersistedState) -> String? {
    do {
      try store.save(state)
      return nil
    } catch {
      return failureText("\(error)")
    }
  }

  /// Writes what is still queued, then stops the writer thread.
  func stop() {
    writer?.stop()
    writer = nil
  }

  private func failureText(_ reason: String) -> String {
    "cannot save the state to \(store.path): \(reason); the change holds until orientd stops"
  }

  private func handle(_ outcome: StateWriter.Outcome) {
    switch outcome {
    case .saved(let generation):
      committed(generation, nil)
    case .failed(let generation, let reason):
      let failure = failureText(reason)
      saveFailure.warn(failure)
      committed(generation, failure)
    case .unavailable(let reason):
      Log.error("the state writer stopped (\(reason)); saving on the main loop from now on")
      writer = nil
      if let writerWatch { loop.unwatch(writerWatch) }
      writerWatch = nil
      let failure = current.flatMap { saveNow($0()) }
      if let failure { Log.error(failure) }
      committed(.max, failure)
    }
  }
}
