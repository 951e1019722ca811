import OrientIIO
import Testing

@Suite("Choosing a sampling frequency")
struct SamplingFrequencyChoiceTests {
  @Test("The need is what the poll interval asks for, and at least 10 Hz")
  func need() {
    #expect(SamplingFrequencies.needed(interval: .milliseconds(200)) == 10)
    #expect(SamplingFrequencies.needed(interval: .milliseconds(100)) == 10)
    #expect(SamplingFrequencies.needed(interval: .milliseconds(20)) == 50)
    #expect(SamplingFrequencies.needed(interval: .milliseconds(30)) == 34)
    #expect(SamplingFrequencies.needed(interval: .milliseconds(1)) == 1000)
  }

  @Test("From a list, the lowest rate at or above the need, else the highest")
  func fromList() {
    #expect(SamplingFrequencies.target(current: 1, needed: 10, available: "1 5 20 50") == 20)
    #expect(SamplingFrequencies.target(current: 1, needed: 20, available: "50 20 1 5") == 20)
    #expect(SamplingFrequencies.target(current: 1, needed: 200, available: "1 5 20 50") == 50)
    #expect(SamplingFrequencies.target(current: 1, needed: 10, available: "0.78 1.56 3.12 6.25 12.5") == 12.5)
  }

  @Test("From a range [min step max], the lowest step at or above the need, within the range")
  func fromRange() {
    #expect(SamplingFrequencies.target(current: 1, needed: 10, available: "[1 4 100]") == 13)
    #expect(SamplingFrequencies.target(current: 1, needed: 10, available: "[20 5 100]") == 20)
    #expect(SamplingFrequencies.target(current: 1, needed: 500, available: "[1 4 100]") == 100)
    #expect(SamplingFrequencies.target(current: 0.1, needed: 0.35, available: "[0.1 0.1 1]") == 0.4)
  }

  @Test("With nothing offered, the need itself; a rate is never lowered")
  func noListAndNeverLower() {
    #expect(SamplingFrequencies.target(current: 1, needed: 10, available: nil) == 10)
    #expect(SamplingFrequencies.target(current: 1, needed: 10, available: "garbage") == 10)
    #expect(SamplingFrequencies.target(current: 50, needed: 10, available: "1 5 20 50") == nil)
    #expect(SamplingFrequencies.target(current: 10, needed: 10, available: nil) == nil)
    // Nothing offered above the current rate: left alone.
    #expect(SamplingFrequencies.target(current: 5, needed: 10, available: "1 2 5") == nil)
  }
}
