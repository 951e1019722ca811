import Testing

@testable import OrientSystem

@Suite("Waits in whole milliseconds")
struct MillisecondRoundingTests {
  @Test(
    "Nanoseconds become whole milliseconds rounded up, never below zero, as a Duration of them does",
    arguments: [
      (Int64(0), Int32(0)), (1, 1), (999_999, 1), (1_000_000, 1), (1_000_001, 2), (700_000_000, 700),
      (-1, 0), (-5_000_000, 0), (.max, .max),
    ])
  func roundsUp(nanoseconds: Int64, milliseconds: Int32) {
    #expect(millisecondsRoundedUp(nanoseconds: nanoseconds) == milliseconds)
    #expect(Duration.nanoseconds(nanoseconds).millisecondsRoundedUp == milliseconds)
  }
}
