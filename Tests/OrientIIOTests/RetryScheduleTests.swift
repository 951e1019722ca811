import OrientIIO
import Testing

@Suite("Spacing out attempts that keep failing")
struct RetryScheduleTests {
  @Test("Waits double from 2 s up to a minute, and start again at 2 s after a success")
  func doublingUpToAMinute() {
    var schedule = RetrySchedule()
    let seconds = (0..<8).map { _ in schedule.delayAfterFailure() / 1_000_000_000 }
    #expect(seconds == [2, 4, 8, 16, 32, 60, 60, 60])
    schedule.reset()
    #expect(schedule.delayAfterFailure() == 2_000_000_000)
  }
}
