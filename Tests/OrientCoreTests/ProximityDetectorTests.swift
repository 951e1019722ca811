import Testing

@testable import OrientCore

/// Feeds `readings` to a detector with `rule`; returns whether each was near.
private func near(_ rule: ProximityDetector.Rule, _ readings: [Double]) -> [Bool] {
  var detector = ProximityDetector(rule: rule)
  return readings.map { detector.take($0) }
}

/// The failure's message, or nil for a success.
private func failure(_ result: Result<Double?, ValueError>) -> String? {
  if case .failure(let error) = result { return error.message }
  return nil
}

@Suite("Near or far from a proximity sensor's readings")
struct ProximityDetectorTests {
  static let level128 = ProximityDetector.Rule.nearLevel(128)

  @Test("After a reading at or below the level, near starts above 110 % of it")
  func highMark() {
    // 128 * 1.1 = 140.8
    #expect(near(Self.level128, [140.8]) == [false])
    #expect(near(Self.level128, [140.9]) == [true])
    #expect(near(Self.level128, [128, 140.8]) == [false, false], "a reading at the level is not above it")
    #expect(near(Self.level128, [128, 141]) == [false, true])
  }

  @Test("After a reading above the level, near holds down to 90 % of it")
  func lowMark() {
    // 128 * 0.9 = 115.2
    #expect(near(Self.level128, [256, 115.3]) == [true, true])
    #expect(near(Self.level128, [256, 115.2]) == [true, false])
    #expect(
      near(Self.level128, [129, 116]) == [false, true], "129 is above the level, though not near itself")
  }

  @Test("iio-sensor-proxy's integration test: 256 near, 0 far, 129 near once polled again, then 127 near")
  func iioSensorProxySequence() {
    // test_iio_poll_proximity with in_proximity_nearlevel 128 waits for each value with
    // assertEventually, so a value may be polled more than once: 129 after 0 is far on its
    // first poll (the mark is 140.8) and near from its second (115.2). 127 after 129 is near
    // (its "margin" check), but only on its first poll: after 127 the mark is 140.8 again.
    #expect(
      near(Self.level128, [256, 256, 0, 0, 129, 129, 127, 127])
        == [true, true, false, false, false, true, true, false])
  }

  @Test("A steady reading between the marks settles on the level itself, one reading late")
  func steadyInsideTheMargins() {
    #expect(near(Self.level128, [0, 135, 135, 135]) == [false, false, true, true])
    #expect(near(Self.level128, [256, 120, 120, 120]) == [true, true, false, false])
  }

  @Test("Readings that alternate around the level within the band flip with it, as iio-sensor-proxy's do")
  func hoveringFollowsTheReadingBefore() {
    let readings: [Double] = [0, 125, 131, 125, 131, 125, 131, 125, 131]
    // The margin follows the reading before, not the state (iio-sensor-proxy's rule, which
    // orientd keeps so that both tell a client the same): 125 after 131 is near, 131 after
    // 125 is far.
    #expect(near(Self.level128, readings) == [false, false, false, true, false, true, false, true, false])
  }

  @Test("A reset starts the margins afresh, as if the last reading were 0")
  func reset() {
    var detector = ProximityDetector(rule: Self.level128)
    let first = [detector.take(256), detector.take(129)]
    #expect(first == [true, true], "after 256, 129 is above 115.2")
    detector.reset()
    let afterReset = detector.take(129)
    #expect(!afterReset, "after a reset, 129 is below 140.8")
  }

  @Test("Human presence: near while the reading is not 0, whatever came before")
  func presence() {
    #expect(
      near(.presence, [0, 1, 1, 0, 0.5, -1, 0, 255]) == [false, true, true, false, true, true, false, true])
  }

  @Test("The margins are 90 % and 110 %")
  func marks() {
    #expect(ProximityDetector.lowMark == 0.9)
    #expect(ProximityDetector.highMark == 1.1)
    #expect(ProximityDetector(rule: .presence).rule == .presence)
  }

  @Test("A near level is a number above 0; none, or 0, is no near level")
  func nearLevelParsing() throws {
    #expect(try ProximityDetector.nearLevel(nil, source: "udev PROXIMITY_NEAR_LEVEL").get() == nil)
    #expect(try ProximityDetector.nearLevel("0", source: "udev PROXIMITY_NEAR_LEVEL").get() == nil)
    #expect(try ProximityDetector.nearLevel("0.0", source: "in_proximity_nearlevel").get() == nil)
    #expect(try ProximityDetector.nearLevel("128", source: "in_proximity_nearlevel").get() == 128)
    #expect(try ProximityDetector.nearLevel(" 128\n", source: "in_proximity_nearlevel").get() == 128)
    #expect(try ProximityDetector.nearLevel("12.5", source: "in_proximity_nearlevel").get() == 12.5)
  }

  @Test("A near level that is not a number, or below 0, is a failure naming its source")
  func nearLevelFailures() {
    #expect(
      failure(ProximityDetector.nearLevel("abc", source: "udev PROXIMITY_NEAR_LEVEL"))
        == "udev PROXIMITY_NEAR_LEVEL 'abc' is not a number")
    #expect(
      failure(ProximityDetector.nearLevel("-5", source: "in_proximity_nearlevel"))
        == "in_proximity_nearlevel -5 is below 0")
    for text in ["", "nan", "inf", "0x80", "12 lux"] {
      let message = failure(ProximityDetector.nearLevel(text, source: "in_proximity_nearlevel"))
      #expect(message?.hasPrefix("in_proximity_nearlevel '") == true, "'\(text)': \(message ?? "taken")")
    }
  }
}
