import Testing

@testable import OrientSystem

/// A clock a test moves by hand.
private final class HandClock {
  var now = MonotonicInstant(nanoseconds: 5_000_000_000)
}

@Suite("An event loop on a clock the test moves")
struct ScriptedClockLoopTests {
  @Test("Timers fire when the loop's clock reaches them, not when real time does")
  func timersFollowTheLoopsClock() throws {
    let clock = HandClock()
    let loop = try EventLoop(clock: { clock.now })
    var fired: [UInt64] = []
    let timer = LoopTimer(loop: loop) { fired.append($0) }
    timer.schedule(after: .seconds(60), repeating: .seconds(60))
    try loop.runRound(waitingAtMost: .zero)
    #expect(fired.isEmpty)
    clock.now = clock.now + .seconds(60)
    try loop.runRound(waitingAtMost: .zero)
    #expect(fired == [1])
    #expect(loop.now == clock.now, "a round reads the loop's clock")
    // Three periods at once are one call that counts them.
    clock.now = clock.now + .seconds(180)
    try loop.runRound(waitingAtMost: .zero)
    #expect(fired == [1, 3])
  }

  @Test("A round waits no longer than its limit when nothing is ready")
  func roundIsBounded() throws {
    let loop = try EventLoop()
    let start = MonotonicInstant.now
    try loop.runRound(waitingAtMost: .milliseconds(20))
    let waited = MonotonicInstant.now - start
    #expect(waited >= .milliseconds(20))
    #expect(waited < .seconds(5))
  }
}
