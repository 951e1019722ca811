import Testing

@testable import OrientCore

/// `state.apply(change)`, callable inside `#expect`, which cannot mutate.
private func apply(_ state: inout SensorProxyAccelerometer, _ change: StateChange)
  -> [SensorProxyAccelerometer.Property]
{
  state.apply(change)
}

private func claim(
  _ claims: inout SensorProxyClaims, _ sensor: SensorKind, by client: String,
  user: UInt32 = 1000
)
  -> SensorProxyClaims.ClaimOutcome
{
  claims.claim(sensor, by: client, user: user)
}

private func release(_ claims: inout SensorProxyClaims, _ sensor: SensorKind, by client: String)
  -> Bool
{
  claims.release(sensor, by: client)
}

@Suite("iio-sensor-proxy's accelerometer properties and claims, from orientd's state")
struct SensorProxyTests {
  @Test("The orientation is undefined until the first four-way classification, and flat keeps the last one")
  func fourWayAndFlat() {
    var state = SensorProxyAccelerometer(source: .device)
    #expect(apply(&state, .sensor(online: true)) == [.hasAccelerometer])
    #expect(state.orientationText == "undefined")
    #expect(apply(&state, .device(.faceUp)) == [])
    #expect(state.orientationText == "undefined")
    #expect(apply(&state, .device(.leftUp)) == [.accelerometerOrientation])
    #expect(state.orientationText == "left-up")
    #expect(apply(&state, .device(.faceDown)) == [])
    #expect(state.orientationText == "left-up")
    #expect(apply(&state, .device(.bottomUp)) == [.accelerometerOrientation])
    #expect(state.orientationText == "bottom-up")
  }

  @Test("Offline is no accelerometer and undefined, both reported; back online brings the last value back")
  func offlineAndBack() {
    var state = SensorProxyAccelerometer(source: .device)
    _ = state.apply(.sensor(online: true))
    _ = state.apply(.device(.rightUp))
    #expect(apply(&state, .sensor(online: false)) == [.hasAccelerometer, .accelerometerOrientation])
    #expect(!state.hasAccelerometer && state.orientation == nil)
    // A change while offline is kept for when the sensor returns.
    #expect(apply(&state, .device(.normal)) == [])
    #expect(apply(&state, .sensor(online: true)) == [.hasAccelerometer, .accelerometerOrientation])
    #expect(state.orientationText == "normal")
  }

  @Test("With the device as source a lock changes nothing; with the screen as source it does")
  func deviceOrScreen() {
    var device = SensorProxyAccelerometer(source: .device)
    var screen = SensorProxyAccelerometer(source: .screen)
    let changes: [StateChange] = [
      .sensor(online: true), .device(.normal), .orientation(.normal), .lock(.bottomUp),
      .orientation(.bottomUp),
      .device(.leftUp),
    ]
    let deviceChanged = changes.map { device.apply($0) }
    let screenChanged = changes.map { screen.apply($0) }
    #expect(device.orientationText == "left-up")
    #expect(screen.orientationText == "bottom-up")
    #expect(deviceChanged[4] == [] && deviceChanged[5] == [.accelerometerOrientation])
    #expect(screenChanged[4] == [.accelerometerOrientation] && screenChanged[5] == [])
  }

  @Test("A claim is a flag per client, not a count, and goes with its client's connection")
  func claims() {
    var claims = SensorProxyClaims()
    #expect(claim(&claims, .accelerometer, by: ":1.7") == .claimed(newClient: true))
    #expect(claim(&claims, .accelerometer, by: ":1.7") == .repeated)
    #expect(claim(&claims, .accelerometer, by: ":1.9") == .claimed(newClient: true))
    #expect(claim(&claims, .light, by: ":1.9") == .claimed(newClient: false))
    #expect(claims.claimants(of: .accelerometer) == 2)
    #expect(release(&claims, .accelerometer, by: ":1.7"))
    #expect(!claims.claims(.accelerometer, by: ":1.7"))
    #expect(!release(&claims, .accelerometer, by: ":1.7"), "releasing what is not claimed is no error")
    #expect(claims.clients == [":1.9"])
    let dropped = claims.disconnect(":1.9")
    #expect(dropped == [.accelerometer, .light])
    #expect(claims.claimants(of: .accelerometer) == 0 && claims.clients.isEmpty)
  }

  @Test(
    "A client whose last claim is released is forgotten, and claims of new clients beyond the limit are refused"
  )
  func claimLimit() {
    var claims = SensorProxyClaims(clientLimit: 2)
    #expect(claim(&claims, .accelerometer, by: ":1.1") == .claimed(newClient: true))
    #expect(claim(&claims, .compass, by: ":1.2") == .claimed(newClient: true))
    #expect(claim(&claims, .accelerometer, by: ":1.3") == .refused(.tooManyClients))
    #expect(!claims.holdsClaims(":1.3") && claims.claimants(of: .accelerometer) == 1)
    // A client that holds claims may still add more, and repeat them, at the limit.
    #expect(claim(&claims, .light, by: ":1.1") == .claimed(newClient: false))
    #expect(claim(&claims, .light, by: ":1.1") == .repeated)
    #expect(release(&claims, .compass, by: ":1.2"))
    #expect(!claims.holdsClaims(":1.2"))
    #expect(claim(&claims, .accelerometer, by: ":1.3") == .claimed(newClient: true))
    claims.removeAll()
    #expect(claims.clients.isEmpty)
  }

  @Test("Before any claim orientation and tilt stay undefined; a claim shows them, a release freezes them")
  func claimGate() {
    var state = SensorProxyAccelerometer(source: .device, claimed: false)
    #expect(apply(&state, .sensor(online: true)) == [.hasAccelerometer])
    #expect(apply(&state, .device(.normal)) == [])
    #expect(state.apply(tilt: .vertical) == [])
    #expect(state.orientationText == "undefined" && state.tilt == .undefined)
    #expect(state.setClaimed(true) == [.accelerometerOrientation, .accelerometerTilt])
    #expect(state.orientationText == "normal" && state.tilt == .vertical)
    #expect(apply(&state, .device(.leftUp)) == [.accelerometerOrientation])
    #expect(state.setClaimed(false) == [])
    #expect(apply(&state, .device(.rightUp)) == [])
    #expect(state.orientationText == "left-up", "unclaimed, the last value shown stays")
    // Losing the sensor is shown even unclaimed; nothing is known any more.
    #expect(
      apply(&state, .sensor(online: false)) == [
        .hasAccelerometer, .accelerometerOrientation, .accelerometerTilt,
      ])
    #expect(apply(&state, .sensor(online: true)) == [.hasAccelerometer])
    #expect(state.setClaimed(true) == [.accelerometerOrientation])
    #expect(state.orientationText == "right-up" && state.tilt == .undefined)
  }
}

extension SensorProxyTests {
  @Test(
    "After a restart (the bus went away) nothing is claimed and orientation and tilt are undefined until a claim"
  )
  func restart() {
    var state = SensorProxyAccelerometer(source: .device, claimed: false)
    _ = state.apply(.sensor(online: true))
    _ = state.apply(.device(.leftUp))
    _ = state.apply(tilt: .tiltedUp)
    _ = state.setClaimed(true)
    state.restart()
    #expect(!state.claimed && state.orientation == nil && state.tilt == .undefined && state.hasAccelerometer)
    #expect(state.setClaimed(true) == [.accelerometerOrientation, .accelerometerTilt])
    #expect(state.orientationText == "left-up" && state.tilt == .tiltedUp)
  }
}

extension SensorProxyTests {
  @Test("One user may hold only so many clients with claims; root and other users are not held back by it")
  func perUserLimit() {
    var claims = SensorProxyClaims(clientLimit: 10, clientsPerUser: 2)
    #expect(claim(&claims, .accelerometer, by: ":1.1", user: 65534) == .claimed(newClient: true))
    #expect(claim(&claims, .accelerometer, by: ":1.2", user: 65534) == .claimed(newClient: true))
    #expect(claim(&claims, .accelerometer, by: ":1.3", user: 65534) == .refused(.tooManyOfUser))
    #expect(claim(&claims, .light, by: ":1.2", user: 65534) == .claimed(newClient: false))
    #expect(claim(&claims, .accelerometer, by: ":1.4", user: 1000) == .claimed(newClient: true))
    for index in 5..<9 {
      #expect(claim(&claims, .accelerometer, by: ":1.\(index)", user: 0) == .claimed(newClient: true))
    }
    _ = claims.disconnect(":1.1")
    #expect(claim(&claims, .accelerometer, by: ":1.3", user: 65534) == .claimed(newClient: true))
  }
}
