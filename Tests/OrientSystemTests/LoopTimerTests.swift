import CSeccompTestSupport
import Glibc
import Synchronization
import Testing

@testable import OrientSystem

/// Runs `loop` until it stops, failing the test instead of hanging if it runs past `seconds`.
private func run(_ loop: EventLoop, atMost limit: Duration = .seconds(5)) throws {
  let guardTimer = LoopTimer(loop: loop) { _ in
    Issue.record("the loop was still running after \(limit)")
    loop.stop()
  }
  guardTimer.schedule(after: limit)
  try loop.run()
}

@Suite("Loop timers")
struct LoopTimerTests {
  @Test("A periodic timer fires on its schedule, never before a deadline")
  func periodicTimerKeepsItsSchedule() throws {
    let loop = try EventLoop()
    let interval = Duration.milliseconds(10)
    let start = MonotonicInstant.now
    var fired: [MonotonicInstant] = []
    let timer = LoopTimer(loop: loop) { _ in
      fired.append(.now)
      if fired.count == 10 { loop.stop() }
    }
    timer.schedule(after: interval, repeating: interval)
    try run(loop)
    #expect(fired.count == 10)
    for (index, time) in fired.enumerated() {
      #expect(time >= start + interval * (index + 1), "tick \(index + 1) came early")
    }
  }

  @Test("A one-shot timer fires once, and a cancelled timer not at all")
  func oneShotAndCancelledTimers() throws {
    let loop = try EventLoop()
    var once = 0
    var cancelledFired = false
    let oneShot = LoopTimer(loop: loop) { _ in once += 1 }
    let cancelled = LoopTimer(loop: loop) { _ in cancelledFired = true }
    let end = LoopTimer(loop: loop) { _ in loop.stop() }
    oneShot.schedule(after: .zero)
    cancelled.schedule(after: .milliseconds(5), repeating: .milliseconds(5))
    cancelled.cancel()
    end.schedule(after: .milliseconds(50))
    try run(loop)
    #expect(once == 1)
    #expect(!cancelledFired)
  }

  @Test("Periods missed while a handler was busy are counted, not replayed")
  func missedPeriodsAreCounted() throws {
    let loop = try EventLoop()
    var calls: [UInt64] = []
    let timer = LoopTimer(loop: loop) { expirations in
      calls.append(expirations)
      if calls.count == 1 { usleep(55_000) }  // about five periods of 10 ms
      if calls.count == 2 { loop.stop() }
    }
    timer.schedule(after: .milliseconds(10), repeating: .milliseconds(10))
    try run(loop)
    // Two calls, not one per period: the second counts the periods the busy first one missed.
    // (The first may count more than one itself when a loaded machine runs the loop late.)
    #expect(calls.count == 2)
    #expect((calls.last ?? 0) >= 5, "the busy handler missed five periods, got \(calls)")
  }

  @Test("A handler may re-arm its own timer and drop another that is due in the same round")
  func handlersRearmAndDropTimers() throws {
    let loop = try EventLoop()
    var firstRuns = 0
    var secondRan = false
    var second: LoopTimer? = LoopTimer(loop: loop) { _ in secondRan = true }
    var first: LoopTimer!
    first = LoopTimer(loop: loop) { _ in
      firstRuns += 1
      second = nil
      if firstRuns < 3 { first.schedule(after: .milliseconds(1)) } else { loop.stop() }
    }
    first.schedule(after: .milliseconds(5))
    second?.schedule(after: .milliseconds(5))
    usleep(10_000)  // both are due before the loop first waits
    try run(loop)
    #expect(firstRuns == 3)
    #expect(!secondRan, "a timer dropped by a handler earlier in the same round must not fire")
    #expect(second == nil)
  }

  @Test("A timer armed at the end of a slow handler waits its own delay, not the handler's too")
  func slowHandlerDoesNotDelayTheNextTimer() throws {
    let loop = try EventLoop()
    var armedAt = MonotonicInstant(nanoseconds: 0)
    var firedAt = MonotonicInstant(nanoseconds: 0)
    let next = LoopTimer(loop: loop) { _ in
      firedAt = .now
      loop.stop()
    }
    let slow = LoopTimer(loop: loop) { _ in
      usleep(500_000)
      armedAt = .now
      next.schedule(after: .milliseconds(10))
    }
    slow.schedule(after: .zero)
    try run(loop)
    #expect(firedAt >= armedAt + .milliseconds(10))
    // Counting from the round's start would add the handler's 500 ms.
    #expect(firedAt - armedAt < .milliseconds(300), "fired \(firedAt - armedAt) after arming")
  }

  @Test("Timers and ready descriptors are served by the same wait")
  func timersAndDescriptorsInterleave() throws {
    let loop = try EventLoop()
    var pipeEnds: [Int32] = [0, 0]
    try #require(pipe(&pipeEnds) == 0)
    _ = fcntl(pipeEnds[0], F_SETFL, O_NONBLOCK)
    defer { pipeEnds.forEach { close($0) } }
    var received = ""
    let watch = try loop.watch(pipeEnds[0]) { _ in
      var byte: UInt8 = 0
      while read(pipeEnds[0], &byte, 1) == 1 { received.append(Character(UnicodeScalar(byte))) }
      if received.count == 3 { loop.stop() }
    }
    var writes = 0
    let writer = LoopTimer(loop: loop) { _ in
      writes += 1
      var byte = UInt8(ascii: "a") + UInt8(writes - 1)
      _ = write(pipeEnds[1], &byte, 1)
    }
    writer.schedule(after: .milliseconds(2), repeating: .milliseconds(2))
    try run(loop)
    loop.unwatch(watch)
    #expect(received == "abc")
  }
}

@Suite("Loop timers without epoll_pwait2")
struct LoopTimerFallbackTests {
  @Test("Timers still keep their schedule where a seccomp filter refuses epoll_pwait2")
  func timersWorkWithoutPwait2() throws {
    let outcome = FilteredThreadOutcome()
    // The filter stays with the thread it is installed on: give it a thread of its own.
    let body: @convention(c) (UnsafeMutableRawPointer?) -> UnsafeMutableRawPointer? = { context in
      let outcome = Unmanaged<FilteredThreadOutcome>.fromOpaque(context!).takeUnretainedValue()
      guard test_refuse_epoll_pwait2() == 0 else { return nil }
      outcome.state.withLock { $0.installed = true }
      do {
        let loop = try EventLoop()
        var fired: [MonotonicInstant] = []
        let timer = LoopTimer(loop: loop) { _ in
          fired.append(.now)
          if fired.count == 5 { loop.stop() }
        }
        let scheduled = MonotonicInstant.now
        timer.schedule(after: .milliseconds(10), repeating: .milliseconds(10))
        try loop.run()
        outcome.state.withLock {
          $0.scheduled = scheduled
          $0.fired = fired
          $0.waitedInMilliseconds = loop.waitsInMilliseconds
        }
      } catch {
        outcome.state.withLock { $0.error = "\(error)" }
      }
      return nil
    }
    var thread = pthread_t()
    try #require(pthread_create(&thread, nil, body, Unmanaged.passUnretained(outcome).toOpaque()) == 0)
    pthread_join(thread, nil)
    let state = outcome.state.withLock { $0 }
    try #require(state.installed, "cannot install a seccomp filter here")
    #expect(state.error == nil)
    // The premise: the filtered loop really fell back to epoll_wait.
    #expect(state.waitedInMilliseconds, "the loop behind the filter did not fall back")
    #expect(state.fired.count == 5)
    for (index, time) in state.fired.enumerated() {
      #expect(time >= state.scheduled + .milliseconds(10 * (index + 1)), "tick \(index + 1) came early")
    }
    // The fallback belongs to that loop alone: a loop on this unfiltered thread still uses
    // epoll_pwait2 (Linux 5.11 and later have it).
    let loop = try EventLoop()
    let timer = LoopTimer(loop: loop) { _ in loop.stop() }
    timer.schedule(after: .milliseconds(1))
    try run(loop)
    #expect(
      !loop.waitsInMilliseconds, "the fallback leaked into another loop, or this kernel lacks epoll_pwait2")
  }
}

/// What the filtered thread saw, shared with the test.
private final class FilteredThreadOutcome: Sendable {
  struct State {
    var installed = false
    var scheduled = MonotonicInstant(nanoseconds: 0)
    var fired: [MonotonicInstant] = []
    var waitedInMilliseconds = false
    var error: String?
  }
  let state = Mutex(State())
}
