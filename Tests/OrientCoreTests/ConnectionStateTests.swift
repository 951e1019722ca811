import OrientCore
import Testing

@Suite("A socket client's life: serving, waiting, closing, a peer that hung up")
struct ConnectionStateTests {
  func afterRound(
    _ state: ConnectionState, unserved: Bool = false, pilingUp: Bool = false, pending: Bool = false
  ) -> ConnectionState.AfterRound {
    state.afterRound(hasUnservedInput: unserved, outputPilingUp: pilingUp, hasPendingOutput: pending)
  }

  @Test("A new client is served, reads input, hears changes and rests when it has nothing left")
  func newClient() {
    let state = ConnectionState(linesPerRound: 16)
    #expect(state.phase == .serving)
    #expect(state.isOpen && !state.isWaiting && state.hearsChanges)
    #expect(state.mayServeLine(outputPilingUp: false))
    #expect(state.wantsInput(hasUnservedInput: false, outputPilingUp: false))
    #expect(!state.readsWithoutReadiness)
    #expect(afterRound(state) == .rest)
    #expect(afterRound(state, unserved: true) == .serveAgain)
  }

  @Test("Output piling up stops serving and reading, and input left waits for the socket, not the next round")
  func outputPilingUp() {
    let state = ConnectionState(linesPerRound: 16)
    #expect(!state.mayServeLine(outputPilingUp: true))
    #expect(!state.wantsInput(hasUnservedInput: false, outputPilingUp: true))
    #expect(afterRound(state, unserved: true, pilingUp: true) == .rest)
  }

  @Test("Input already received and not served is served before more is read")
  func unservedInputFirst() {
    let state = ConnectionState(linesPerRound: 16)
    #expect(!state.wantsInput(hasUnservedInput: true, outputPilingUp: false))
    #expect(state.mayServeLine(outputPilingUp: false))
  }

  @Test("A client waiting for its commit is not served nor read until a commit as late as its own")
  func awaitingCommit() {
    var state = ConnectionState(linesPerRound: 16)
    state.awaitCommit(5)
    #expect(state.phase == .awaitingCommit(5))
    #expect(state.isWaiting && state.hearsChanges)
    #expect(!state.mayServeLine(outputPilingUp: false))
    #expect(!state.wantsInput(hasUnservedInput: false, outputPilingUp: false))
    #expect(afterRound(state, unserved: true) == .rest)
    let early = state.committed(through: 4)
    #expect(!early)
    #expect(state.isWaiting)
    let late = state.committed(through: 7)
    #expect(late)
    #expect(state.phase == .serving)
    let again = state.committed(through: 7)
    #expect(!again, "a commit ends a wait once")
  }

  @Test("A client waiting for its greeting hears no changes; one waiting for a get reply does")
  func awaitingFresh() {
    var greeting = ConnectionState(linesPerRound: 16)
    greeting.awaitFresh(.greeting)
    #expect(greeting.freshWait == .greeting)
    #expect(!greeting.hearsChanges && greeting.isWaiting)
    #expect(!greeting.mayServeLine(outputPilingUp: false))
    let committed = greeting.committed(through: .max)
    #expect(!committed, "a commit does not end a wait for a current state")
    #expect(greeting.stateIsFresh() == .greeting)
    #expect(greeting.phase == .serving && greeting.hearsChanges)
    #expect(greeting.stateIsFresh() == nil)

    var get = ConnectionState(linesPerRound: 16)
    get.awaitFresh(.getReply(nil))
    #expect(get.hearsChanges && get.isWaiting)
    #expect(get.stateIsFresh() == .getReply(nil))

    var committing = ConnectionState(linesPerRound: 16)
    committing.awaitCommit(1)
    #expect(committing.stateIsFresh() == nil, "a current state does not end a wait for a commit")
    #expect(committing.isWaiting)
  }

  @Test("A closing client is served nothing more, hears nothing, and is dropped once its output is sent")
  func closing() {
    var state = ConnectionState(linesPerRound: 16)
    state.close()
    #expect(state.phase == .closing)
    #expect(!state.mayServeLine(outputPilingUp: false))
    #expect(!state.wantsInput(hasUnservedInput: false, outputPilingUp: false))
    #expect(!state.hearsChanges)
    #expect(afterRound(state, unserved: true, pending: true) == .rest)
    #expect(afterRound(state, unserved: true, pending: false) == .drop)
    state.awaitCommit(3)
    #expect(state.phase == .closing, "a closing client waits for nothing")
  }

  @Test("A client whose input ended is not read again, still hears changes, and stays until it closes")
  func inputEnded() {
    var state = ConnectionState(linesPerRound: 16)
    state.inputClosed()
    #expect(!state.wantsInput(hasUnservedInput: false, outputPilingUp: false))
    #expect(state.hearsChanges)
    #expect(state.mayServeLine(outputPilingUp: false), "lines received before the end are served")
    #expect(afterRound(state) == .rest)
  }

  @Test(
    "A peer that hung up is served one round's worth of lines in all, read without readiness, then dropped")
  func peerGone() {
    var state = ConnectionState(linesPerRound: 4)
    state.peerHungUp()
    #expect(state.readsWithoutReadiness)
    #expect(afterRound(state) == .serveAgain, "what it sent before it closed may still be unread")
    for _ in 0..<3 { state.lineServed() }
    #expect(state.mayServeLine(outputPilingUp: false))
    #expect(afterRound(state, unserved: true) == .serveAgain)
    state.lineServed()
    #expect(state.linesServedSinceGone == 4)
    #expect(!state.mayServeLine(outputPilingUp: false))
    #expect(afterRound(state, unserved: true) == .drop)
  }

  @Test("A peer that hung up is dropped once its input is all served, or when it closes")
  func peerGoneDone() {
    var ended = ConnectionState(linesPerRound: 16)
    ended.peerHungUp()
    ended.inputClosed()
    #expect(!ended.readsWithoutReadiness)
    #expect(afterRound(ended, unserved: true) == .serveAgain)
    #expect(afterRound(ended) == .drop)

    var quitting = ConnectionState(linesPerRound: 16)
    quitting.peerHungUp()
    quitting.close()
    #expect(afterRound(quitting, unserved: true, pending: true) == .drop)
  }

  @Test("A peer that hung up while its change is saved keeps its slot while it may have more input")
  func peerGoneWhileCommitting() {
    var state = ConnectionState(linesPerRound: 16)
    state.awaitCommit(2)
    state.peerHungUp()
    #expect(afterRound(state) == .rest)
    let committed = state.committed(through: 2)
    #expect(committed)
    #expect(afterRound(state) == .serveAgain)
    state.inputClosed()
    #expect(afterRound(state) == .drop)
  }

  @Test("Lines served before the peer hung up do not count against its last round")
  func linesBeforeHangUp() {
    var state = ConnectionState(linesPerRound: 2)
    for _ in 0..<10 { state.lineServed() }
    #expect(state.linesServedSinceGone == 0)
    state.peerHungUp()
    #expect(state.mayServeLine(outputPilingUp: false))
  }

  @Test("An ended client is served nothing, hears nothing and waits for nothing")
  func ended() {
    var state = ConnectionState(linesPerRound: 16)
    state.awaitFresh(.getReply(nil))
    state.end()
    #expect(!state.isOpen)
    #expect(!state.hearsChanges && !state.isWaiting)
    #expect(!state.mayServeLine(outputPilingUp: false))
    #expect(state.stateIsFresh() == nil)
    state.close()
    #expect(state.phase == .ended)
  }
}
