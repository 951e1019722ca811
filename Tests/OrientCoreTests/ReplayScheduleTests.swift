import OrientCore
import Testing

@Suite("When replayed samples are due")
struct ReplayScheduleTests {
  let second: UInt64 = 1_000_000_000

  @Test("Samples are due at their offset from the first, and loops run on")
  func offsets() {
    let schedule = ReplaySchedule(
      startNanoseconds: 5 * second, firstTime: SampleTime(milliseconds: 1000),
      loopLengthMicroseconds: 3_000_000)
    #expect(schedule.dueNanoseconds(of: SampleTime(milliseconds: 1000)) == 5 * second)
    #expect(schedule.dueNanoseconds(of: SampleTime(milliseconds: 2500)) == 6 * second + second / 2)
    #expect(schedule.dueNanoseconds(of: SampleTime(milliseconds: 1000), pass: 2) == 11 * second)
    #expect(schedule.passOffsetMicroseconds(pass: 2) == 6_000_000)
  }

  @Test("A time whose nanoseconds overflow 64 bits is due never, not a trap")
  func overflowingTimes() {
    let schedule = ReplaySchedule(startNanoseconds: 100 * second, firstTime: .zero, loopLengthMicroseconds: 1)
    // 18446744073.8 s is past 2^64 ns: the crafted trace that trapped orientd --replay.
    #expect(schedule.dueNanoseconds(of: SampleTime(microseconds: 18_446_744_073_800_000)) == .max)
    #expect(schedule.dueNanoseconds(of: SampleTime(microseconds: .max)) == .max)
    #expect(schedule.dueNanoseconds(of: .zero, pass: .max) == .max)
    #expect(schedule.passOffsetMicroseconds(pass: .max) == .max)
    let late = ReplaySchedule(startNanoseconds: .max - 1, firstTime: .zero)
    #expect(late.dueNanoseconds(of: SampleTime(microseconds: 1)) == .max)
  }

  @Test("A time before the first is due at the start")
  func earlierTimes() {
    let schedule = ReplaySchedule(startNanoseconds: 7, firstTime: SampleTime(microseconds: 10))
    #expect(schedule.dueNanoseconds(of: SampleTime(microseconds: .min)) == 7)
  }

  @Test("No wait is longer than an hour, and nothing due waits at all")
  func waits() {
    #expect(ReplaySchedule.wait(until: 10, now: 10) == nil)
    #expect(ReplaySchedule.wait(until: 10, now: 11) == nil)
    #expect(ReplaySchedule.wait(until: 15, now: 10) == 5)
    #expect(ReplaySchedule.wait(until: .max, now: 0) == ReplaySchedule.longestWaitNanoseconds)
    #expect(ReplaySchedule.longestWaitNanoseconds == 3600 * second)
  }
}
