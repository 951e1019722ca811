import Testing

@testable import OrientCore

/// Feeds raw readings to `model`; returns each outcome.
private func feed<Model: ReadingModel>(_ model: inout Model, _ raws: [Double])
  -> [Result<ReadingValue?, ValueError>]
{
  raws.map { model.take(raw: $0) }
}

private func lux(_ value: Double) -> Result<ReadingValue?, ValueError> {
  .success(.light(LightLevel(value, unit: .lux)))
}
private func near(_ near: Bool) -> Result<ReadingValue?, ValueError> { .success(.proximity(near: near)) }
private func heading(_ degrees: Double) -> Result<ReadingValue?, ValueError> { .success(.heading(degrees)) }
private let nothing: Result<ReadingValue?, ValueError> = .success(nil)

@Suite("Reading models: raw readings in, values to publish out")
struct ReadingModelTests {
  @Test("Light: raw through scale and offset, then filtered")
  func light() {
    var model = LightModel(conversion: LightConversion(processed: false, scale: 0.5, offset: 2))
    #expect(feed(&model, [198, 208, 230, 230]) == [lux(100), nothing, lux(116), nothing])
  }

  @Test("Light: the filter's floor comes from the conversion's resolution")
  func lightFloor() {
    // A scale of 2.5 lux a count: the floor is 5 lux, so 25 to 30 lux (20 %) is not published.
    var model = LightModel(conversion: LightConversion(processed: false, scale: 2.5))
    #expect(
      feed(&model, [10, 12, 12, 12, 12, 13]) == [lux(25), nothing, nothing, nothing, nothing, lux(32.5)])
    // Processed values have no resolution of their own: the floor is 1 lux.
    var processed = LightModel(conversion: LightConversion(processed: true, scale: 2.5))
    #expect(feed(&processed, [10, 12]) == [lux(10), lux(12)])
  }

  @Test("Light: a negative or non-finite reading is a failure, and leaves the filter alone")
  func lightFailures() {
    var model = LightModel(conversion: LightConversion(processed: true))
    let outcomes = feed(&model, [100, -1, .nan, 100])
    #expect(outcomes[0] == lux(100))
    #expect(outcomes[1] == .failure(ValueError("reading -1 gives a negative light level")))
    #expect(outcomes[2] == .failure(ValueError("reading nan is not a number")))
    #expect(outcomes[3] == nothing, "the level published is still 100")
  }

  @Test("Light: a level already worked out (hwmon) goes through the same filter, in its unit")
  func lightLevels() throws {
    var model = LightModel(conversion: LightConversion(processed: true, unit: .vendor))
    let first = try LightConversion.hwmonLevel("(128,0)").get()
    #expect(model.take(level: first) == .light(first))
    #expect(model.take(level: try LightConversion.hwmonLevel("(130,0)").get()) == nil)
    #expect(
      model.take(level: LightLevel(80, unit: .vendor)) == .light(LightLevel(80, unit: .vendor)))
  }

  @Test("Light: after a reset the next reading is published, even the same")
  func lightReset() {
    var model = LightModel(conversion: LightConversion(processed: true))
    #expect(feed(&model, [100, 100]) == [lux(100), nothing])
    model.reset()
    #expect(feed(&model, [100]) == [lux(100)])
  }

  @Test("Proximity: publishes only changes of near and far")
  func proximity() {
    var model = ProximityModel(rule: .nearLevel(128))
    #expect(
      feed(&model, [0, 10, 256, 300, 200, 0, 0])
        == [near(false), nothing, near(true), nothing, nothing, near(false), nothing])
  }

  @Test("Proximity: a switch's near and far are published when they change")
  func proximitySwitch() {
    var model = ProximityModel(rule: .presence)
    #expect(model.take(near: true) == .proximity(near: true))
    #expect(model.take(near: true) == nil)
    #expect(model.take(near: false) == .proximity(near: false))
    #expect(
      feed(&model, [0, 1]) == [nothing, near(true)], "readings and the switch share what was published")
  }

  @Test("Proximity: a reading that is not a number is a failure, and changes nothing")
  func proximityFailures() {
    var model = ProximityModel(rule: .nearLevel(128))
    let outcomes = feed(&model, [256, .nan, .infinity, 256])
    #expect(outcomes[0] == near(true))
    #expect(outcomes[1] == .failure(ValueError("reading nan is not a number")))
    #expect(outcomes[2] == .failure(ValueError("reading inf is not a number")))
    #expect(outcomes[3] == nothing)
  }

  @Test("Proximity: after a reset the state is published again and the margins start afresh")
  func proximityReset() {
    var model = ProximityModel(rule: .nearLevel(128))
    #expect(feed(&model, [256, 129]) == [near(true), nothing], "129 after 256 is within the margin")
    model.reset()
    #expect(feed(&model, [129]) == [near(false)], "after a reset, 129 is below 110 % of the level")
    model.reset()
    #expect(feed(&model, [0]) == [near(false)], "far is published again too")
  }

  @Test("Compass: degrees are (raw + offset) * scale, wrapped and rounded, moves of a degree published")
  func compass() {
    var model = CompassModel(scale: 0.1)
    #expect(feed(&model, [1234, 1240, 1245, 3650]) == [heading(123.4), nothing, heading(124.5), heading(5)])
    var offset = CompassModel(scale: 2, offset: -10)
    #expect(feed(&offset, [55, 5]) == [heading(90), heading(350)])
    #expect(CompassModel().scale == 1 && CompassModel().offset == 0)
  }

  @Test("Compass: a reading that is no heading is a failure, and changes nothing")
  func compassFailures() {
    var model = CompassModel(scale: 1)
    let outcomes = feed(&model, [90, .nan, 2e9, 90.5])
    #expect(outcomes[0] == heading(90))
    #expect(outcomes[1] == .failure(ValueError("reading nan is not a heading")))
    #expect(outcomes[2] == .failure(ValueError("reading 2000000000.0 is not a heading")))
    #expect(outcomes[3] == nothing)
    var huge = CompassModel(scale: 1e300)
    #expect(feed(&huge, [1e10]) == [.failure(ValueError("reading 10000000000.0 is not a heading"))])
  }

  @Test("Compass: after a reset the next heading is published, even the same")
  func compassReset() {
    var model = CompassModel()
    #expect(feed(&model, [42, 42]) == [heading(42), nothing])
    model.reset()
    #expect(feed(&model, [42]) == [heading(42)])
  }
}
