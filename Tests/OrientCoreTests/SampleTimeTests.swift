import OrientCore
import Testing

@Suite("Sample times from the clock's nanoseconds")
struct SampleTimeTests {
  @Test(
    "A time from nanoseconds is the one a Duration of them gives: whole microseconds, truncated toward zero",
    arguments: [
      Int64(0), 1, 999, 1000, 1001, 1_999_999, 700_000_000, 86_400_000_000_123, -1, -999, -1000, -1001,
      -700_000_999, .max, .min, .max - 1, .min + 1,
    ])
  func nanosecondsAgreeWithDuration(nanoseconds: Int64) {
    #expect(
      SampleTime(sinceOriginNanoseconds: nanoseconds).microseconds
        == SampleTime(sinceOrigin: .nanoseconds(nanoseconds)).microseconds)
  }

  @Test("Random nanoseconds agree with the Duration path")
  func randomNanosecondsAgree() {
    var generator = SystemRandomNumberGenerator()
    for _ in 0..<2000 {
      let nanoseconds = Int64.random(in: -1_000_000_000_000_000...1_000_000_000_000_000, using: &generator)
      #expect(
        SampleTime(sinceOriginNanoseconds: nanoseconds) == SampleTime(sinceOrigin: .nanoseconds(nanoseconds)),
        "\(nanoseconds)")
    }
  }
}
