/// Where one socket client is in its life, and the rules for serving it that follow from it.
///
/// The client is served, waits (for its last change to be saved, or for a state that is
/// current again), is closing (its output is flushed, then it is dropped) or has ended.
/// Independent of that, its peer may hang up (what it sent before is still served, at most one
/// round's worth, and nothing more is sent to it) and it may end its input (it may still listen).
///
/// Pure: the connection reports what happened and asks what to do; it does the I/O.
package struct ConnectionState: Equatable, Sendable {
  /// What the client is doing; one thing at a time.
  package enum Phase: Equatable, Sendable {
    /// Its commands are served.
    case serving
    /// Its last control command waits for this state commit; its `ok` and its further
    /// commands wait until the commit is durable.
    case awaitingCommit(UInt64)
    /// Its greeting or a `get` reply waits for a current state (sampling resumes after an
    /// idle stretch); it is not served meanwhile.
    case awaitingFresh(FreshWait)
    /// It may send nothing more: its waiting output is flushed, then it is dropped.
    case closing
    /// The server has forgotten it.
    case ended
  }

  /// Lines served from one client per round at most, and to a peer that hung up in all.
  package let linesPerRound: Int
  /// What the client is doing.
  package private(set) var phase = Phase.serving
  /// Whether the peer hung up both ways (or failed a write): nothing more reaches it.
  package private(set) var peerGone = false
  /// Whether the client shut down its sending side, or nothing more can be read from it.
  package private(set) var inputEnded = false
  /// Lines served since the peer went away.
  package private(set) var linesServedSinceGone = 0

  /// A new client, being served, that serves at most `linesPerRound` lines in a round.
  package init(linesPerRound: Int) {
    self.linesPerRound = linesPerRound
  }

  /// Whether the client waits for a commit or for a current state.
  package var isWaiting: Bool {
    switch phase {
    case .awaitingCommit, .awaitingFresh: return true
    case .serving, .closing, .ended: return false
    }
  }

  /// What waits for a current state, if anything does.
  package var freshWait: FreshWait? {
    guard case .awaitingFresh(let wait) = phase else { return nil }
    return wait
  }

  /// Whether the server still holds the client.
  package var isOpen: Bool { phase != .ended }

  /// Whether the client hears published changes and samples: not while it closes or after it
  /// ended, and not before its greeting, which will include them.
  package var hearsChanges: Bool {
    switch phase {
    case .serving, .awaitingCommit, .awaitingFresh(.getReply): return true
    case .awaitingFresh(.greeting), .closing, .ended: return false
    }
  }

  // MARK: What happened

  /// The peer hung up (or a write to it failed).
  package mutating func peerHungUp() { peerGone = true }

  /// The client ended its input, or nothing more can be read from it.
  package mutating func inputClosed() { inputEnded = true }

  /// The client may send nothing more (`quit`, or a line over the limit).
  package mutating func close() {
    guard phase == .serving else { return }
    phase = .closing
  }

  /// The server forgot the client; nothing more is done with it.
  package mutating func end() { phase = .ended }

  /// One line of the client's is being served.
  package mutating func lineServed() {
    if peerGone { linesServedSinceGone += 1 }
  }

  /// The client's control command waits for `generation` to be saved.
  package mutating func awaitCommit(_ generation: UInt64) {
    guard phase == .serving else { return }
    phase = .awaitingCommit(generation)
  }

  /// Every commit up to `generation` is settled; true when that ends the client's wait (it
  /// then gets its `ok` and is served again).
  package mutating func committed(through generation: UInt64) -> Bool {
    guard case .awaitingCommit(let awaited) = phase, awaited <= generation else { return false }
    phase = .serving
    return true
  }

  /// The greeting, or a `get` reply, waits for a current state.
  package mutating func awaitFresh(_ wait: FreshWait) {
    guard phase == .serving else { return }
    phase = .awaitingFresh(wait)
  }

  /// The state is current again: returns what waited for it, if anything did, and the client
  /// is served again.
  package mutating func stateIsFresh() -> FreshWait? {
    guard let wait = freshWait else { return nil }
    phase = .serving
    return wait
  }

  // MARK: What to do

  /// Whether another line may be served now, given whether the client's output piles up
  /// (then it waits until the socket takes it). A peer that went away is held to the same
  /// pacing and gets one round's worth of lines in all: enough for what a client sends just
  /// before it closes, too little to turn a closed connection into a flood.
  package func mayServeLine(outputPilingUp: Bool) -> Bool {
    phase == .serving && !outputPilingUp && !(peerGone && linesServedSinceGone >= linesPerRound)
  }

  /// Whether to read more when no whole line waits: only from a peer that hung up, whose
  /// input the loop no longer reports.
  package var readsWithoutReadiness: Bool { peerGone && !inputEnded }

  /// Whether the loop should report input: only when everything the client sent before is
  /// served, it waits for nothing and its output is not piling up, so that one client cannot
  /// make the daemon buffer without bound.
  package func wantsInput(hasUnservedInput: Bool, outputPilingUp: Bool) -> Bool {
    phase == .serving && !inputEnded && !hasUnservedInput && !outputPilingUp
  }

  /// What follows a round of serving.
  package enum AfterRound: Equatable, Sendable {
    /// Forget the client.
    case drop
    /// Serve it again next round, after the other clients: it has more input.
    case serveAgain
    /// Wait for the loop to report it again (input, output room) or for its wait to end.
    case rest
  }

  /// What follows a round of serving, given what is left of the client's input and output.
  ///
  /// A peer that went away is dropped once its input is served, it closes, or it had its
  /// round's worth; its last change, if any, is saved all the same, and nobody waits for the
  /// `ok`. A closing client is dropped once its output is flushed.
  package func afterRound(hasUnservedInput: Bool, outputPilingUp: Bool, hasPendingOutput: Bool) -> AfterRound {
    let moreInput = hasUnservedInput || readsWithoutReadiness
    if peerGone, !moreInput || phase == .closing || linesServedSinceGone >= linesPerRound { return .drop }
    if moreInput, phase == .serving, !outputPilingUp { return .serveAgain }
    if phase == .closing, !hasPendingOutput { return .drop }
    return .rest
  }
}

/// What a client waits to be sent once the state is current.
package enum FreshWait: Equatable, Sendable {
  /// The greeting of a client that connected while the state was stale.
  case greeting
  /// The reply to a `get` of the whole orientation state (nil), or of these keys: it waits
  /// while the orientation state is stale (if it asks for any of it) and while a reading it
  /// asks for is not current.
  case getReply(Subscription?)
}
