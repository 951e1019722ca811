import Testing

@testable import OrientCore

@Suite("When replayed samples are due")
struct ReplayScheduleTests {
  @Test("Samples are due at their offset from the first, and loops run on")
  func offsets() {
    let schedule = ReplaySchedule(firstTime: SampleTime(milliseconds: 1000), loopLength: .seconds(3))
    #expect(schedule.due(SampleTime(milliseconds: 1000)) == .zero)
    #expect(schedule.due(SampleTime(milliseconds: 2500)) == .milliseconds(1500))
    #expect(schedule.due(SampleTime(milliseconds: 1000), pass: 2) == .seconds(6))
    #expect(schedule.passOffset(pass: 2) == .seconds(6))
  }

  @Test("A time whose nanoseconds overflow 64 bits is due never, not a trap")
  func overflowingTimes() {
    let schedule = ReplaySchedule(firstTime: .zero, loopLength: .microseconds(1))
    // 18446744073.8 s is past 2^64 ns: the crafted trace that trapped orientd --replay.
    #expect(schedule.due(SampleTime(microseconds: 18_446_744_073_800_000)) == nil)
    #expect(schedule.due(SampleTime(microseconds: .max)) == nil)
    #expect(schedule.due(.zero, pass: .max) == nil)
    #expect(schedule.passOffset(pass: .max) == .microseconds(Int64.max))
    // Just inside 2^63 ns is still a time.
    #expect(schedule.due(SampleTime(microseconds: 9_223_372_036_854_775)) != nil)
  }

  @Test("A time before the first is due at the start")
  func earlierTimes() {
    let schedule = ReplaySchedule(firstTime: SampleTime(microseconds: 10))
    #expect(schedule.due(SampleTime(microseconds: .min)) == .zero)
  }

  @Test("No wait is longer than an hour, and nothing due waits at all")
  func waits() {
    #expect(ReplaySchedule.wait(until: .seconds(10), elapsed: .seconds(10)) == nil)
    #expect(ReplaySchedule.wait(until: .seconds(10), elapsed: .seconds(11)) == nil)
    #expect(ReplaySchedule.wait(until: .seconds(15), elapsed: .seconds(10)) == .seconds(5))
    #expect(ReplaySchedule.wait(until: .seconds(7200), elapsed: .zero) == ReplaySchedule.longestWait)
    #expect(ReplaySchedule.wait(until: nil, elapsed: .zero) == ReplaySchedule.longestWait)
    #expect(ReplaySchedule.longestWait == .seconds(3600))
  }
}
