import Testing

@testable import OrientCore

@Suite("The readings' state lines: light, proximity and heading")
struct StateChangeTests {
  @Test(
    "Each reading's line is spelled as the protocol says",
    arguments: [
      (StateChange.light(.value(LightLevel(350.5, unit: .lux))), "light 350.5 lux"),
      (.light(.value(LightLevel(12, unit: .lux))), "light 12 lux"),
      (.light(.value(LightLevel(0.25, unit: .lux))), "light 0.25 lux"),
      (.light(.value(LightLevel(50.196_078, unit: .vendor))), "light 50.2 vendor"),
      (.light(.value(LightLevel(0, unit: .lux))), "light 0 lux"),
      (.light(.unknown), "light undefined"),
      (.light(.absent), "light none"),
      (.proximity(.value(true)), "proximity near"),
      (.proximity(.value(false)), "proximity far"),
      (.proximity(.unknown), "proximity undefined"),
      (.proximity(.absent), "proximity none"),
      (.heading(.value(123.4)), "heading 123.4"),
      (.heading(.value(0)), "heading 0"),
      (.heading(.value(359.9)), "heading 359.9"),
      (.heading(.unknown), "heading undefined"),
      (.heading(.absent), "heading none"),
    ])
  func lines(change: StateChange, line: String) {
    #expect(change.line == line)
  }

  @Test("Every reading's line parses back to the same change")
  func roundTrip() {
    let changes: [StateChange] = [
      .light(.value(LightLevel(350.5, unit: .lux))), .light(.value(LightLevel(12, unit: .vendor))),
      .light(.value(LightLevel(0, unit: .lux))), .light(.value(LightLevel(99_999.99, unit: .lux))),
      .light(.unknown), .light(.absent),
      .proximity(.value(true)), .proximity(.value(false)), .proximity(.unknown), .proximity(.absent),
      .heading(.value(123.4)), .heading(.value(0)), .heading(.value(359.9)), .heading(.unknown),
      .heading(.absent),
    ]
    for change in changes {
      #expect(StateChange(line: change.line) == change, "\(change.line)")
    }
  }

  @Test("A heading published by the compass model always survives the round trip")
  func compassHeadingsRoundTrip() {
    var degrees = -720.0
    while degrees < 720 {
      if let heading = HeadingFilter.normalized(degrees) {
        let change = StateChange.heading(.value(heading))
        #expect(StateChange(line: change.line) == change, "\(degrees) gave \(change.line)")
      }
      degrees += 0.37
    }
  }

  @Test(
    "Malformed reading lines are not changes",
    arguments: [
      "light 350.5", "light lux", "light 350.5 candela", "light 350.5 lux extra", "light nan lux",
      "light inf lux", "light", "proximity maybe", "proximity Near", "proximity 1", "heading 360",
      "heading -1", "heading north", "heading nan", "heading", "lights 1 lux", "Light 1 lux",
    ])
  func malformed(line: String) {
    #expect(StateChange(line: line) == nil)
  }

  @Test("The keys of the readings, and what they are about")
  func keys() {
    #expect(StateChange.light(.unknown).key == .light)
    #expect(StateChange.proximity(.absent).key == .proximity)
    #expect(StateChange.heading(.value(1)).key == .heading)
    #expect(StateKey.readings == [.light, .proximity, .heading])
    #expect(StateKey.orientationState == [.sensor, .device, .orientation, .lock, .allowed, .mode, .hinge])
    #expect(
      Set(StateKey.readings + StateKey.orientationState + [.suggestion]).count == StateKey.allCases.count)
    #expect(StateKey.light.readingKind == .light)
    #expect(StateKey.proximity.readingKind == .proximity)
    #expect(StateKey.heading.readingKind == .compass)
    #expect(StateKey.orientationState.allSatisfy { $0.readingKind == nil })
  }

  @Test("The value text alone, without the key")
  func valueText() {
    #expect(StateChange.light(.value(LightLevel(99.999, unit: .lux))).valueText == "100 lux")
    #expect(StateChange.light(.value(LightLevel(3.14159, unit: .vendor))).valueText == "3.14 vendor")
    #expect(StateChange.heading(.value(-0.0)).valueText == "0")
    #expect(StateChange.proximity(.value(true)).valueText == "near")
  }
}
