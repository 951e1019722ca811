import OrientCore
import Testing

@Suite("Spacing out attempts that keep failing")
struct RetryScheduleTests {
  @Test("Waits double from 2 s up to a minute, and start again at 2 s after a success")
  func doublingUpToAMinute() {
    var schedule = RetrySchedule()
    let delays = (0..<8).map { _ in schedule.delayAfterFailure() }
    #expect(delays == [2, 4, 8, 16, 32, 60, 60, 60].map { Duration.seconds($0) })
    #expect(schedule.failures == 8)
    schedule.reset()
    #expect(schedule.delayAfterFailure() == .seconds(2))
  }
}
