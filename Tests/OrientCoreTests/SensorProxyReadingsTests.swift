import Testing

@testable import OrientCore

/// `state.apply(change)`, callable inside `#expect`, which cannot mutate.
private func apply(_ state: inout SensorProxyReadings, _ change: StateChange) -> [SensorProxyReadings
  .Property]
{
  state.apply(change)
}

/// `state.setClaimed(kind, claimed)`, callable inside `#expect`.
private func claim(_ state: inout SensorProxyReadings, _ kind: SensorKind, _ claimed: Bool = true)
  -> [SensorProxyReadings.Property]
{
  state.setClaimed(kind, claimed)
}

private func lux(_ value: Double) -> StateChange { .light(.value(LightLevel(value, unit: .lux))) }

@Suite("iio-sensor-proxy's light, proximity and compass properties, from orientd's readings")
struct SensorProxyReadingsTests {
  @Test("Before anything: no sensors, and iio-sensor-proxy's defaults of 0 lux, not near, heading 0")
  func defaults() {
    let state = SensorProxyReadings()
    #expect(!state.hasAmbientLight && !state.hasProximity && !state.hasCompass)
    #expect(state.lightLevel == LightLevel(0, unit: .lux))
    #expect(!state.proximityNear)
    #expect(state.compassHeading == 0)
    #expect(state.claimed.isEmpty)
  }

  @Test("A light sensor that appears signals HasAmbientLight with LightLevelUnit and LightLevel")
  func lightAppears() {
    var state = SensorProxyReadings()
    #expect(apply(&state, .light(.unknown)) == [.hasAmbientLight, .lightLevelUnit, .lightLevel])
    #expect(state.hasAmbientLight)
    #expect(apply(&state, .light(.unknown)) == [], "still there is no change")
    #expect(apply(&state, .light(.absent)) == [.hasAmbientLight], "a sensor that goes only signals Has")
    #expect(!state.hasAmbientLight)
  }

  @Test("Values are shown only while claimed; a first claim brings them up to date")
  func lightFollowsClaims() {
    var state = SensorProxyReadings()
    _ = state.apply(.light(.unknown))
    #expect(apply(&state, lux(10)) == [], "nobody claims the light")
    #expect(state.lightLevel == LightLevel(0, unit: .lux))
    #expect(claim(&state, .light) == [.lightLevelUnit, .lightLevel])
    #expect(state.lightLevel == LightLevel(10, unit: .lux))
    #expect(claim(&state, .light) == [], "a second claim changes nothing")
    #expect(apply(&state, lux(30)) == [.lightLevelUnit, .lightLevel])
    #expect(state.lightLevel == LightLevel(30, unit: .lux))
    #expect(claim(&state, .light, false) == [], "a release leaves the value shown")
    #expect(apply(&state, lux(50)) == [])
    #expect(state.lightLevel == LightLevel(30, unit: .lux), "stale after the last release")
    #expect(claim(&state, .light) == [.lightLevelUnit, .lightLevel])
    #expect(state.lightLevel == LightLevel(50, unit: .lux))
  }

  @Test("A claim when the shown value is already the latest signals nothing")
  func claimWithNothingNew() {
    var state = SensorProxyReadings()
    _ = state.apply(.light(.unknown))
    #expect(claim(&state, .light) == [], "0 lux shown, 0 lux latest")
    #expect(state.claimed == [.light])
  }

  @Test("The light level is always signalled with its unit, a change of unit alone included")
  func unitAlways() {
    var state = SensorProxyReadings()
    _ = state.setClaimed(.light, true)
    #expect(
      apply(&state, .light(.value(LightLevel(0, unit: .vendor)))) == [
        .hasAmbientLight, .lightLevelUnit, .lightLevel,
      ])
    #expect(state.lightLevel.unit == .vendor)
    #expect(apply(&state, .light(.value(LightLevel(40, unit: .vendor)))) == [.lightLevelUnit, .lightLevel])
  }

  @Test("A sensor that comes back signals its value along, even one already shown")
  func comesBack() {
    var state = SensorProxyReadings()
    _ = state.setClaimed(.proximity, true)
    _ = state.apply(.proximity(.value(true)))
    #expect(apply(&state, .proximity(.absent)) == [.hasProximity])
    #expect(state.proximityNear, "the value shown stays")
    #expect(apply(&state, .proximity(.unknown)) == [.hasProximity, .proximityNear])
  }

  @Test("Proximity: near follows the readings while claimed")
  func proximity() {
    var state = SensorProxyReadings()
    #expect(apply(&state, .proximity(.unknown)) == [.hasProximity, .proximityNear])
    #expect(apply(&state, .proximity(.value(true))) == [])
    #expect(!state.proximityNear)
    #expect(claim(&state, .proximity) == [.proximityNear])
    #expect(state.proximityNear)
    #expect(apply(&state, .proximity(.value(false))) == [.proximityNear])
    #expect(apply(&state, .proximity(.value(false))) == [])
    #expect(apply(&state, .proximity(.unknown)) == [], "undefined keeps the value shown")
  }

  @Test("Compass: its properties are on the compass object")
  func compass() {
    var state = SensorProxyReadings()
    _ = state.setClaimed(.compass, true)
    let appeared = apply(&state, .heading(.value(123.4)))
    #expect(appeared == [.hasCompass, .compassHeading])
    #expect(appeared.allSatisfy { $0.onCompass })
    #expect(state.compassHeading == 123.4)
    #expect(apply(&state, .heading(.value(200))) == [.compassHeading])
    let onCompass = SensorProxyReadings.Property.allCases.filter(\.onCompass)
    #expect(onCompass == [.hasCompass, .compassHeading])
  }

  @Test("Claims of one sensor do not show another's values")
  func claimsPerSensor() {
    var state = SensorProxyReadings()
    _ = state.apply(lux(10))
    _ = state.apply(.heading(.value(90)))
    #expect(claim(&state, .compass) == [.compassHeading])
    #expect(state.lightLevel == LightLevel(0, unit: .lux))
    #expect(claim(&state, .accelerometer) == [], "the accelerometer's claim has no value here")
  }

  @Test("Changes of the orientation state change none of these properties")
  func otherChanges() {
    var state = SensorProxyReadings()
    _ = state.setClaimed(.light, true)
    #expect(apply(&state, .sensor(online: true)) == [])
    #expect(apply(&state, .orientation(.leftUp)) == [])
    #expect(apply(&state, .hinge(90)) == [])
  }

  @Test("Forgetting the claims keeps what was shown, until the next claim")
  func forgetClaims() {
    var state = SensorProxyReadings()
    _ = state.setClaimed(.light, true)
    _ = state.apply(lux(10))
    state.forgetClaims()
    #expect(state.claimed.isEmpty)
    #expect(apply(&state, lux(20)) == [])
    #expect(state.lightLevel == LightLevel(10, unit: .lux))
    #expect(claim(&state, .light) == [.lightLevelUnit, .lightLevel])
    #expect(state.lightLevel == LightLevel(20, unit: .lux))
  }

  @Test("The properties have iio-sensor-proxy's D-Bus names, in signal order")
  func propertyNames() {
    #expect(
      SensorProxyReadings.Property.allCases.map(\.rawValue) == [
        "HasAmbientLight", "LightLevelUnit", "LightLevel", "HasProximity", "ProximityNear", "HasCompass",
        "CompassHeading",
      ])
  }
}
