import Testing

@testable import OrientCore

@Suite("Reading sensors started at once when needed, stopped after a linger")
struct ReadingDemandTests {
  @Test("A sensor starts at once when needed; the same need again does nothing")
  func startsAtOnce() {
    var demand = ReadingDemand()
    #expect(demand.running.isEmpty)
    #expect(demand.update([.light]) == [.start(.light)])
    #expect(demand.running == [.light])
    #expect(demand.update([.light]).isEmpty)
  }

  @Test("Several sensors start in one update, light, proximity, compass in that order")
  func severalAtOnce() {
    var demand = ReadingDemand()
    #expect(
      demand.update([.compass, .light, .proximity]) == [.start(.light), .start(.proximity), .start(.compass)])
  }

  @Test("The accelerometer is not a reading sensor: needing it starts nothing")
  func accelerometerIgnored() {
    var demand = ReadingDemand()
    #expect(demand.update([.accelerometer]).isEmpty)
    #expect(demand.running.isEmpty)
  }

  @Test("Once nothing needs a sensor it lingers 5 s, then stops")
  func lingersThenStops() {
    var demand = ReadingDemand()
    _ = demand.update([.light])
    #expect(demand.update([]) == [.armLinger(.light, .seconds(5))])
    #expect(ReadingDemand.linger == .seconds(5))
    #expect(demand.running == [.light], "it is still read while it lingers")
    #expect(demand.lingering == [.light])
    #expect(demand.update([]).isEmpty, "the linger is armed once")
    #expect(demand.lingerExpired(.light, needed: []) == [.stop(.light)])
    #expect(demand.running.isEmpty && demand.lingering.isEmpty)
    #expect(demand.update([]).isEmpty, "a stopped sensor does not linger again")
  }

  @Test("A need again during the linger cancels it, and the sensor never stops")
  func needAgainCancels() {
    var demand = ReadingDemand()
    _ = demand.update([.proximity])
    _ = demand.update([])
    #expect(demand.update([.proximity]) == [.cancelLinger(.proximity)])
    #expect(demand.running == [.proximity] && demand.lingering.isEmpty)
    #expect(
      demand.lingerExpired(.proximity, needed: [.proximity]).isEmpty, "a cancelled linger stops nothing")
    #expect(demand.lingerExpired(.proximity, needed: []).isEmpty, "nor does a late timer after the cancel")
    #expect(demand.running == [.proximity])
    #expect(demand.update([.proximity]).isEmpty, "no second start")
  }

  @Test("A linger that runs out while the sensor is needed again stops nothing")
  func expiredButNeeded() {
    var demand = ReadingDemand()
    _ = demand.update([.compass])
    _ = demand.update([])
    // The need came back, but the timer fired before `update` heard of it.
    #expect(demand.lingerExpired(.compass, needed: [.compass]).isEmpty)
    #expect(demand.running == [.compass])
    #expect(demand.lingering.isEmpty)
    #expect(demand.update([]) == [.armLinger(.compass, .seconds(5))], "it lingers again when unneeded")
  }

  @Test("A linger expiring for a sensor that is not lingering does nothing")
  func expiredUnknown() {
    var demand = ReadingDemand()
    #expect(demand.lingerExpired(.light, needed: []).isEmpty)
    _ = demand.update([.light])
    #expect(demand.lingerExpired(.light, needed: []).isEmpty, "a running sensor that is needed does not stop")
    #expect(demand.running == [.light])
  }

  @Test("Each sensor lingers and stops on its own")
  func independent() {
    var demand = ReadingDemand()
    _ = demand.update([.light, .compass])
    #expect(demand.update([.compass]) == [.armLinger(.light, .seconds(5))])
    #expect(demand.update([.proximity]) == [.start(.proximity), .armLinger(.compass, .seconds(5))])
    #expect(demand.update([.light, .proximity]) == [.cancelLinger(.light)])
    #expect(demand.lingerExpired(.compass, needed: [.light, .proximity]) == [.stop(.compass)])
    #expect(demand.running == [.light, .proximity])
  }

  @Test("After a stop, a need starts the sensor again")
  func restart() {
    var demand = ReadingDemand()
    _ = demand.update([.light])
    _ = demand.update([])
    _ = demand.lingerExpired(.light, needed: [])
    #expect(demand.update([.light]) == [.start(.light)])
  }
}
