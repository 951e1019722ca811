import Testing

@testable import OrientCore

/// Feeds `values` (in `unit`) to `filter`; returns what it published at each reading, nil where
/// it published nothing.
private func feed(_ filter: inout LightFilter, _ values: [Double], unit: LightUnit = .lux) -> [Double?] {
  values.map { filter.take(LightLevel($0, unit: unit))?.value }
}

/// A deterministic pseudo-random source: Knuth's MMIX linear congruential generator, its top
/// 53 bits as a fraction in 0 ..< 1.
private struct Congruential {
  var state: UInt64

  mutating func next() -> Double {
    state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
    return Double(state >> 11) / Double(UInt64(1) << 53)
  }

  /// A factor within ±`fraction` of 1.
  mutating func noise(_ fraction: Double) -> Double { 1 + (2 * next() - 1) * fraction }
}

@Suite("The light filter: steps and drifts published, noise not")
struct LightFilterTests {
  @Test("The first reading is published whatever it is, dark included")
  func firstReading() {
    var filter = LightFilter()
    #expect(filter.published == nil)
    #expect(filter.take(LightLevel(0, unit: .lux)) == LightLevel(0, unit: .lux))
    #expect(filter.published == LightLevel(0, unit: .lux))
  }

  @Test("The floor is twice the sensor's resolution, and at least 1")
  func floor() {
    #expect(LightFilter().floor == 1)
    #expect(LightFilter(resolution: 0.1).floor == 1)
    #expect(LightFilter(resolution: 0.5).floor == 1)
    #expect(LightFilter(resolution: 2.5).floor == 5)
    #expect(LightFilter(resolution: -3).floor == 6, "a negative scale's step is its size")
    #expect(LightFilter(resolution: .nan).floor == 1)
    #expect(LightFilter(resolution: .infinity).floor == 1)
  }

  @Test("A step of more than 10 % is published at the reading that shows it; 10 % exactly is not a step")
  func stepBoundary() {
    var filter = LightFilter()
    #expect(feed(&filter, [100, 110, 90, 110.01]) == [100, nil, nil, 110.01])
    var down = LightFilter()
    #expect(feed(&down, [100, 89.99]) == [100, 89.99])
  }

  @Test("A step is measured from the level published, not from the last reading")
  func stepFromPublished() {
    var filter = LightFilter()
    // Each reading is within 10 % of the one before, but the last is 12 % above the level published.
    // (A ramp this steep would also drift; the readings are few enough that the window never fills.)
    #expect(feed(&filter, [100, 106, 112]) == [100, nil, 112])
    #expect(filter.published == LightLevel(112, unit: .lux))
  }

  @Test("A change smaller than the floor is never published, however many percent it is")
  func darkIsQuiet() {
    var filter = LightFilter()
    // 0.5 lux is 50 % of 1 lux, yet less than the floor of 1 lux.
    #expect(feed(&filter, [1, 1.5, 0.6, 1.9, 1.9, 1.9, 1.9, 1.9]) == [1, nil, nil, nil, nil, nil, nil, nil])
    #expect(feed(&filter, [2.01]) == [2.01], "more than the floor away is a step")
    var coarse = LightFilter(resolution: 2.5)
    // A floor of 5 lux: 4.9 lux is 49 % of 10 lux but two counts of the sensor or less.
    #expect(feed(&coarse, [10, 14.9, 14.9, 14.9, 14.9, 15.1]) == [10, nil, nil, nil, nil, 15.1])
  }

  @Test("The mean of the last 4 readings is published once it is more than 5 % away")
  func drift() {
    var filter = LightFilter()
    // Each 7 % away: not a step. The mean of four of them is published, at the fourth.
    #expect(feed(&filter, [100, 107, 107, 107, 107]) == [100, nil, nil, nil, 107])
    // Exactly 5 % away is not more than 5 %.
    var exact = LightFilter()
    #expect(feed(&exact, [100, 105, 105, 105, 105, 105]) == [100, nil, nil, nil, nil, nil])
    var mixed = LightFilter()
    let published = feed(&mixed, [200, 208, 214, 212, 218])
    #expect(published == [200, nil, nil, nil, 213], "the mean of 208, 214, 212 and 218")
  }

  @Test("The drift window is the last 4 readings: older ones drop out of the mean")
  func windowSlides() {
    var filter = LightFilter()
    // 95, 95, 95 pull the mean down; the window then slides over 104, 104, 104, 104.
    let published = feed(&filter, [100, 95, 95, 95, 104, 104, 104, 104, 104])
    #expect(published == [100, nil, nil, nil, nil, nil, nil, nil, nil])
    // Then 106: the means are 104.5, 105, then 105.5, which is more than 5 % away. Had the 95s
    // stayed in the mean, it would never get there.
    #expect(feed(&filter, [106, 106, 106]) == [nil, nil, 105.5])
  }

  @Test("A slow ramp is followed in steps of about 5 %, never at every reading")
  func ramp() {
    var filter = LightFilter()
    // Dusk: 1 % down a reading, from 1000 lux, for 60 readings.
    var level = 1000.0
    var readings: [Double] = []
    for _ in 0..<60 {
      readings.append(level)
      level *= 0.99
    }
    let published = feed(&filter, readings).compactMap { $0 }
    #expect(published.first == 1000)
    #expect(published.count >= 6 && published.count <= 15, "published \(published.count) times")
    for (before, after) in zip(published, published.dropFirst()) {
      #expect(after < before, "a falling ramp publishes falling levels")
      #expect((before - after) / before > LightFilter.driftFraction, "\(before) to \(after) is within 5 %")
    }
    #expect(readings.last! / published.last! > 0.9, "the level published keeps up with the ramp")
  }

  @Test("A change of unit is always published, even to the same number")
  func unitChange() {
    var filter = LightFilter()
    #expect(feed(&filter, [100]) == [100])
    #expect(filter.take(LightLevel(100, unit: .vendor)) == LightLevel(100, unit: .vendor))
    #expect(filter.take(LightLevel(100.5, unit: .vendor)) == nil)
    #expect(filter.take(LightLevel(100.5, unit: .lux)) == LightLevel(100.5, unit: .lux))
  }

  @Test("A step clears the window: readings before it do not count towards a drift after it")
  func stepClearsWindow() {
    var filter = LightFilter()
    // Three readings of 104 wait in the window, then a step to 200.
    #expect(feed(&filter, [100, 104, 104, 104, 200]) == [100, nil, nil, nil, 200])
    // 190 three times: had the old readings stayed, the mean would be far from 200 at once.
    #expect(feed(&filter, [190, 190, 190]) == [nil, nil, nil])
    #expect(feed(&filter, [190]) == [nil], "190 is exactly 5 % below 200")
  }

  @Test("After a reset the next reading is published, even the level published before")
  func reset() {
    var filter = LightFilter()
    #expect(feed(&filter, [100, 100]) == [100, nil])
    filter.reset()
    #expect(filter.published == nil)
    #expect(feed(&filter, [100, 100]) == [100, nil])
  }

  @Test("A constant level with ±3 % noise is published once over 86 readings")
  func noiseIsQuiet() {
    var random = Congruential(state: 3)
    let noise = (0..<86).map { _ in random.noise(0.03) }
    // The noise really does span nearly ±3 %, so the test is not passing on a quiet sequence.
    #expect(noise.min()! < 0.975 && noise.max()! > 1.025)
    #expect(noise.allSatisfy { abs($0 - 1) <= 0.03 })
    let readings = noise.map { 400 * $0 }
    // Without the filter every reading would be published: each differs from the one before.
    #expect(zip(readings, readings.dropFirst()).allSatisfy { $0 != $1 })
    var filter = LightFilter()
    let published = feed(&filter, readings)
    #expect(published.compactMap { $0 } == [readings[0]])
    #expect(published[0] != nil)
  }

  @Test("A step of more than 10 % through the noise is published at the first reading that shows it")
  func stepThroughNoise() {
    var random = Congruential(state: 3)
    let quiet = (0..<86).map { _ in 400 * random.noise(0.03) }
    let brighter = (0..<30).map { _ in 500 * random.noise(0.03) }
    var filter = LightFilter()
    let published = feed(&filter, quiet + brighter)
    let indices = published.indices.filter { published[$0] != nil }
    #expect(indices == [0, 86], "published at readings \(indices)")
    #expect(published[86] == brighter[0], "a step publishes the reading itself, not a mean")
  }

  @Test("A step that noise hides at first is published at the first reading more than 10 % away")
  func stepFirstShown() {
    var filter = LightFilter()
    // Published 100; the level moves to 115, but the first reading after the move reads low.
    #expect(feed(&filter, [100, 109, 116]) == [100, nil, 116])
  }

  @Test("A level published from a noisy high reading is caught up with by the drift, once")
  func noisyFirstReadingCaughtUp() {
    var filter = LightFilter()
    // The first reading is 3 % high; the true level then reads 3 % low: 6 % apart.
    let published = feed(&filter, [103, 97, 97, 97, 97, 97, 97, 97, 97, 97])
    #expect(published == [103, nil, nil, nil, 97, nil, nil, nil, nil, nil])
  }
}
