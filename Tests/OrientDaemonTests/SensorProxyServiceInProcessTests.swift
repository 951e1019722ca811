import Glibc
import OrientBus
import OrientCore
import OrientSystem
import Testing

@testable import OrientDaemon

/// `net.hadess.SensorProxy`'s decisions, served in the test process on a scripted bus: who may
/// claim, the demand the claims make, the buffers while the name is or is not orientd's, the
/// PropertiesChanged sent for which properties, the values read, and the refusals. What only a
/// real bus shows (its policy, real clients, iio-sensor-proxy beside orientd) stays in
/// Tests/OrientdTests.
@Suite("The sensor proxy service, served in the test process on a scripted bus")
struct SensorProxyServiceInProcessTests {
  static let name = ServedSensorProxy.name
  static let mainProperties = [
    "HasAccelerometer", "AccelerometerOrientation", "AccelerometerTilt", "HasAmbientLight", "LightLevelUnit",
    "LightLevel", "HasProximity", "ProximityNear",
  ]

  // MARK: The name and the buffers

  @Test("Once the name is its own, the service allows buffers and signals every property of both objects")
  func nameOwned() throws {
    let served = try ServedSensorProxy(owned: false)
    // The premise: asked for, not yet answered, no buffer.
    #expect(served.connection.traffic == [.requestName(Self.name)])
    #expect(!served.service.buffersAllowed)
    served.connection.send(.name(Self.name, .owned))
    served.settle()
    #expect(served.service.buffersAllowed)
    #expect(served.buffersAllowedChanges == [true])
    #expect(
      served.connection.traffic(since: 1) == [
        .propertiesChanged(path: ServedSensorProxy.main, interface: Self.name, names: Self.mainProperties),
        compassChanged("HasCompass", "CompassHeading"),
      ])
    #expect(
      served.service.status == "serving \(Self.name) on the system bus; 0 clients claim the accelerometer")
  }

  @Test(
    "Before any claim every property reads as iio-sensor-proxy's would: the sensors there, their values at the defaults"
  )
  func valuesBeforeAnyClaim() throws {
    let served = try ServedSensorProxy()
    let main: [String: BusValue] = [
      "HasAccelerometer": .boolean(true), "AccelerometerOrientation": .string("undefined"),
      "AccelerometerTilt": .string("undefined"), "HasAmbientLight": .boolean(true),
      "LightLevelUnit": .string("lux"), "LightLevel": .double(0), "HasProximity": .boolean(true),
      "ProximityNear": .boolean(false),
    ]
    for (property, value) in main { #expect(served.value(property) == value, "\(property)") }
    #expect(served.value("HasCompass", at: ServedSensorProxy.compass) == .boolean(true))
    #expect(served.value("CompassHeading", at: ServedSensorProxy.compass) == .double(0))
    // Each object has its own properties only.
    #expect(served.value("HasCompass") == nil)
    #expect(served.value("HasAccelerometer", at: ServedSensorProxy.compass) == nil)
  }

  @Test(
    "Queued behind another owner, the service takes no buffer, signals nothing and asks who owns the name; it takes the buffers once the name is its"
  )
  func queuedBehindOwner() throws {
    let served = try ServedSensorProxy(owned: false)
    served.connection.send(.name(Self.name, .queued))
    served.settle()
    #expect(!served.service.buffersAllowed)
    #expect(served.connection.traffic == [.requestName(Self.name), .askProcess(Self.name)])
    served.connection.answerProcess(of: Self.name, with: UInt32(getpid()))
    served.settle()
    #expect(served.service.status.hasPrefix("waiting for \(Self.name) on the system bus, owned by "))
    #expect(served.service.status.hasSuffix("(pid \(getpid()))"), "\(served.service.status)")
    #expect(served.publish([.device(.leftUp), .orientation(.leftUp), .sensor(online: false)]).isEmpty)
    served.connection.send(.name(Self.name, .owned))
    served.settle()
    #expect(served.buffersAllowedChanges == [true])
  }

  @Test("A name lost is given up with the buffers and asked for again 2 s later on a new connection")
  func nameLost() throws {
    let served = try ServedSensorProxy()
    served.connection.send(.name(Self.name, .lost))
    served.settle()
    #expect(served.buffersAllowedChanges == [true, false])
    #expect(served.connection.traffic.last == .close)
    #expect(served.service.status == "not connected to the system bus")
    served.advance(by: .milliseconds(1999))
    #expect(served.bus.connections.count == 1)
    served.advance(by: .milliseconds(1))
    #expect(served.bus.connections.count == 2)
    #expect(served.connection.traffic == [.requestName(Self.name)])
  }

  @Test("A refused name request leaves the buffers alone and is tried again later")
  func nameRefused() throws {
    let served = try ServedSensorProxy(owned: false)
    served.connection.send(.nameRequestFailed(Self.name, error: "org.freedesktop.DBus.Error.AccessDenied"))
    served.settle()
    #expect(!served.service.buffersAllowed)
    #expect(served.buffersAllowedChanges.isEmpty)
    #expect(served.connection.traffic.last == .close)
    served.advance(by: .seconds(2))
    #expect(served.bus.connections.count == 2)
  }

  @Test("With no bus to connect to, buffers are allowed, and the service connects once a bus appears")
  func noBus() throws {
    let served = try ServedSensorProxy(owned: false, reachable: false)
    #expect(served.service.buffersAllowed)
    #expect(served.bus.connections.isEmpty)
    #expect(served.service.status == "not connected to the system bus")
    // Tried again after 2 s, then 4 s: the bus appears in between.
    served.advance(by: .seconds(2))
    served.bus.reachable = true
    served.advance(by: .seconds(2))
    #expect(served.bus.connections.isEmpty)
    served.advance(by: .seconds(2))
    #expect(served.bus.connections.count == 1)
    served.connection.send(.name(Self.name, .queued))
    served.settle()
    #expect(served.buffersAllowedChanges == [true, false])
  }

  // MARK: Claims and demand

  @Test(
    "A first claim asks the bus who runs the client, then watches it, brings the accelerometer up to date and is answered; the daemon hears of the demand"
  )
  func firstClaim() throws {
    let served = try ServedSensorProxy()
    #expect(served.value("AccelerometerOrientation") == .string("undefined"))
    let start = served.connection.traffic.count
    served.connection.call("ClaimAccelerometer", from: ":1.7")
    served.settle()
    #expect(served.connection.traffic(since: start) == [.askUser(":1.7")])
    #expect(!served.service.needsSamples)
    served.connection.answerUser(of: ":1.7", with: 1000)
    served.settle()
    #expect(
      served.connection.traffic(since: start) == [
        .askUser(":1.7"), .watchPeer(":1.7"), mainChanged("AccelerometerOrientation", "AccelerometerTilt"),
        answered("ClaimAccelerometer", to: ":1.7"),
      ])
    #expect(served.service.needsSamples)
    #expect(served.claimsChangedCount == 1)
    #expect(served.value("AccelerometerOrientation") == .string("normal"))
    #expect(served.value("AccelerometerTilt") == .string("vertical"))
    #expect(served.service.status.hasSuffix("; 1 client claims the accelerometer"))
  }

  @Test(
    "A repeated claim is answered at once; the last release drops the demand and the watch; a release of nothing is answered empty"
  )
  func repeatedClaimAndRelease() throws {
    let served = try ServedSensorProxy()
    served.claim("Accelerometer", by: ":1.7")
    #expect(served.claim("Accelerometer", by: ":1.7") == [answered("ClaimAccelerometer", to: ":1.7")])
    #expect(served.claimsChangedCount == 1)
    #expect(
      served.release("Accelerometer", by: ":1.7") == [
        .forgetPeer(":1.7"), answered("ReleaseAccelerometer", to: ":1.7"),
      ])
    #expect(!served.service.needsSamples)
    #expect(served.claimsChangedCount == 2)
    #expect(served.release("Accelerometer", by: ":1.7") == [answered("ReleaseAccelerometer", to: ":1.7")])
    #expect(served.release("Light", by: ":1.9") == [answered("ReleaseLight", to: ":1.9")])
    #expect(served.claimsChangedCount == 2)
  }

  @Test("After the last release nothing is signalled and the value stays; a new claim brings it up to date")
  func valueStaysAfterRelease() throws {
    let served = try ServedSensorProxy()
    served.claim("Accelerometer", by: ":1.7")
    #expect(served.publish([.device(.leftUp)]) == [mainChanged("AccelerometerOrientation")])
    served.release("Accelerometer", by: ":1.7")
    // The premise: the same change signals while claimed (above).
    #expect(served.publish([.device(.rightUp)]).isEmpty)
    #expect(served.value("AccelerometerOrientation") == .string("left-up"))
    let claimed = served.claim("Accelerometer", by: ":1.8")
    #expect(claimed.contains(mainChanged("AccelerometerOrientation")), "\(claimed)")
    #expect(served.value("AccelerometerOrientation") == .string("right-up"))
  }

  @Test("While claimed, each change signals only the properties it changed, once")
  func signalsOnlyWhatChanged() throws {
    let served = try ServedSensorProxy()
    served.claim("Accelerometer", by: ":1.7")
    #expect(
      served.publish([.device(.rightUp), .orientation(.rightUp)]) == [mainChanged("AccelerometerOrientation")]
    )
    // Lying on its back: the tilt changes, the four-way orientation stays right-up.
    served.service.signalTilt(.faceUp)
    #expect(served.publish([.device(.faceUp)]).isEmpty)
    #expect(served.connection.signals.suffix(2) == [["AccelerometerOrientation"], ["AccelerometerTilt"]])
    #expect(served.value("AccelerometerOrientation") == .string("right-up"))
    #expect(served.value("AccelerometerTilt") == .string("face-up"))
    #expect(served.publish([.lock(.rightUp), .mode(.tablet), .hinge(180)]).isEmpty)
  }

  @Test(
    "An unplugged sensor is signalled at once as no accelerometer with orientation and tilt undefined; plugged back, all three return"
  )
  func unplugAndReplug() throws {
    let served = try ServedSensorProxy()
    served.claim("Accelerometer", by: ":1.7")
    #expect(
      served.publish([.sensor(online: false)]) == [
        mainChanged("HasAccelerometer", "AccelerometerOrientation", "AccelerometerTilt")
      ])
    #expect(served.value("HasAccelerometer") == .boolean(false))
    #expect(served.value("AccelerometerOrientation") == .string("undefined"))
    #expect(served.value("AccelerometerTilt") == .string("undefined"))
    #expect(
      served.publish([.sensor(online: true)]) == [mainChanged("HasAccelerometer", "AccelerometerOrientation")]
    )
    served.service.signalTilt(.vertical)
    #expect(served.connection.signals.last == ["AccelerometerTilt"])
    #expect(served.value("HasAccelerometer") == .boolean(true))
    #expect(served.value("AccelerometerOrientation") == .string("normal"))
    #expect(served.value("AccelerometerTilt") == .string("vertical"))
  }

  @Test(
    "A client that leaves the bus loses every claim it held: the demand drops and nothing more is signalled for it"
  )
  func clientLeaves() throws {
    let served = try ServedSensorProxy()
    served.claim("Accelerometer", by: ":1.7")
    served.claim("Compass", by: ":1.7")
    #expect(served.service.needsSamples)
    #expect(served.service.claimedReadings == [.compass])
    #expect(served.claimsChangedCount == 2)
    served.connection.send(.peerGone(":1.7"))
    served.settle()
    #expect(!served.service.needsSamples)
    #expect(served.service.claimedReadings.isEmpty)
    // Once for each sensor that lost its last claim.
    #expect(served.claimsChangedCount == 4)
    #expect(
      served.service.status.hasSuffix("; 0 clients claim the accelerometer"), "\(served.service.status)")
    #expect(served.publish([.device(.bottomUp), .heading(.value(180))]).isEmpty)
    #expect(served.value("AccelerometerOrientation") == .string("normal"))
  }

  @Test(
    "Claims of the light, proximity and compass are the demand for readings, and the compass's properties are signalled on its own object"
  )
  func readingClaims() throws {
    let served = try ServedSensorProxy()
    #expect(served.value("LightLevel") == .double(0))
    let light = served.claim("Light", by: ":1.7")
    #expect(light.contains(mainChanged("LightLevelUnit", "LightLevel")), "\(light)")
    let proximity = served.claim("Proximity", by: ":1.7")
    #expect(proximity.contains(mainChanged("ProximityNear")), "\(proximity)")
    let compass = served.claim("Compass", by: ":1.8")
    #expect(compass.contains(compassChanged("CompassHeading")), "\(compass)")
    #expect(served.service.claimedReadings == [.light, .proximity, .compass])
    #expect(!served.service.needsSamples)
    #expect(served.value("LightLevel") == .double(10))
    #expect(served.value("LightLevelUnit") == .string("lux"))
    #expect(served.value("ProximityNear") == .boolean(true))
    #expect(served.value("HasCompass", at: ServedSensorProxy.compass) == .boolean(true))
    #expect(served.value("CompassHeading", at: ServedSensorProxy.compass) == .double(90))
    #expect(served.publish([.heading(.value(180))]) == [compassChanged("CompassHeading")])
    #expect(
      served.publish([.light(.value(LightLevel(50, unit: .vendor)))]) == [
        mainChanged("LightLevelUnit", "LightLevel")
      ])
    #expect(served.value("LightLevelUnit") == .string("vendor"))
    served.release("Light", by: ":1.7")
    #expect(served.service.claimedReadings == [.proximity, .compass])
  }

  @Test("dbus-orientation screen follows the screen orientation (a lock holds it); device follows the device")
  func orientationSource() throws {
    for source in SensorProxyAccelerometer.Source.allCases {
      let served = try ServedSensorProxy(source: source)
      served.claim("Accelerometer", by: ":1.7")
      let locked = served.publish([.lock(.leftUp), .orientation(.leftUp)])
      let turned = served.publish([.device(.rightUp)])
      switch source {
      case .screen:
        #expect(locked == [mainChanged("AccelerometerOrientation")])
        #expect(turned.isEmpty)
        #expect(served.value("AccelerometerOrientation") == .string("left-up"))
      case .device:
        #expect(locked.isEmpty)
        #expect(turned == [mainChanged("AccelerometerOrientation")])
        #expect(served.value("AccelerometerOrientation") == .string("right-up"))
      }
    }
  }

  // MARK: Calls that wait and refusals

  @Test("Calls that wait for the client's user are answered in order once the bus has said")
  func callsWaitInOrder() throws {
    let served = try ServedSensorProxy()
    let start = served.connection.traffic.count
    served.connection.call("ClaimAccelerometer", from: ":1.7")
    served.connection.call("ReleaseAccelerometer", from: ":1.7")
    served.settle()
    #expect(served.connection.traffic(since: start) == [.askUser(":1.7")])
    served.connection.answerUser(of: ":1.7", with: 1000)
    served.settle()
    #expect(
      served.connection.traffic(since: start) == [
        .askUser(":1.7"), .watchPeer(":1.7"), mainChanged("AccelerometerOrientation", "AccelerometerTilt"),
        answered("ClaimAccelerometer", to: ":1.7"), .forgetPeer(":1.7"),
        answered("ReleaseAccelerometer", to: ":1.7"),
      ])
    #expect(!served.service.needsSamples)
  }

  @Test("A claim of a client the bus does not know is refused with Failed and claims nothing")
  func unknownClient() throws {
    let served = try ServedSensorProxy()
    served.connection.call("ClaimAccelerometer", from: ":1.7")
    served.settle()
    served.connection.answerUser(of: ":1.7", with: nil)
    served.settle()
    let reply = served.connection.traffic.last
    guard case .reply(":1.7", "ClaimAccelerometer", .error(let name, _)) = reply else {
      Issue.record("no refusal: \(String(describing: reply))")
      return
    }
    #expect(name == "org.freedesktop.DBus.Error.Failed")
    #expect(!served.service.needsSamples)
    #expect(served.connection.watched.isEmpty)
  }

  @Test("A claim whose client cannot be watched is refused with Failed and forgotten")
  func unwatchableClaim() throws {
    let served = try ServedSensorProxy()
    served.connection.refusesWatches = true
    let traffic = served.claim("Accelerometer", by: ":1.7")
    guard case .reply(":1.7", "ClaimAccelerometer", .error(let name, _)) = traffic.last else {
      Issue.record("no refusal: \(traffic)")
      return
    }
    #expect(name == "org.freedesktop.DBus.Error.Failed")
    #expect(!traffic.contains { if case .propertiesChanged = $0 { true } else { false } }, "\(traffic)")
    #expect(!served.service.needsSamples)
    #expect(served.claimsChangedCount == 0)
    #expect(served.service.status.hasSuffix("; 0 clients claim the accelerometer"))
  }

  @Test(
    "Past 128 clients a new client's claim is refused with LimitsExceeded without asking the bus; a client that leaves frees its place"
  )
  func clientLimit() throws {
    let served = try ServedSensorProxy()
    // Root's clients: no limit per user.
    for client in 0..<SensorProxyService.clientLimit {
      served.claim("Light", by: ":1.\(100 + client)", user: 0)
    }
    #expect(served.connection.watched.count == 128)
    let refused = served.claim("Accelerometer", by: ":1.99")
    #expect(refused.count == 1, "\(refused)")
    guard case .reply(":1.99", "ClaimAccelerometer", .error(let name, _)) = refused.first else {
      Issue.record("no refusal: \(refused)")
      return
    }
    #expect(name == "org.freedesktop.DBus.Error.LimitsExceeded")
    #expect(!served.service.needsSamples)
    served.connection.send(.peerGone(":1.100"))
    served.settle()
    #expect(served.claim("Accelerometer", by: ":1.99").last == answered("ClaimAccelerometer", to: ":1.99"))
    #expect(served.service.needsSamples)
  }

  @Test("A user's 17th client is refused with LimitsExceeded; another user's client still claims")
  func perUserLimit() throws {
    let served = try ServedSensorProxy()
    for client in 0..<16 {
      #expect(served.claim("Light", by: ":1.\(100 + client)", user: 1000).last != nil)
    }
    let refused = served.claim("Accelerometer", by: ":1.99", user: 1000)
    guard case .reply(":1.99", "ClaimAccelerometer", .error(let name, _)) = refused.last else {
      Issue.record("no refusal: \(refused)")
      return
    }
    #expect(name == "org.freedesktop.DBus.Error.LimitsExceeded")
    #expect(!served.service.needsSamples)
    #expect(
      served.claim("Accelerometer", by: ":1.98", user: 1001).last
        == answered("ClaimAccelerometer", to: ":1.98"))
    #expect(served.service.needsSamples)
  }

  @Test("A client with 128 calls waiting for its user is told that orientd is busy, at once")
  func busyWhileWaiting() throws {
    let served = try ServedSensorProxy()
    let start = served.connection.traffic.count
    for _ in 0..<ClaimantUsers.callsWaitingPerClient {
      served.connection.call("ClaimAccelerometer", from: ":1.7")
    }
    served.settle()
    // The premise: every call so far waits.
    #expect(served.connection.traffic(since: start) == [.askUser(":1.7")])
    served.connection.call("ClaimLight", from: ":1.7")
    served.settle()
    guard case .reply(":1.7", "ClaimLight", .error(let name, _)) = served.connection.traffic.last else {
      Issue.record("not refused: \(served.connection.traffic(since: start))")
      return
    }
    #expect(name == "org.freedesktop.DBus.Error.LimitsExceeded")
  }

  // MARK: The bus going away

  @Test(
    "A bus that goes away takes every claim with it; 2 s later the next connection serves a service that has just started"
  )
  func busLost() throws {
    let served = try ServedSensorProxy()
    served.claim("Accelerometer", by: ":1.7")
    served.claim("Light", by: ":1.7")
    served.connection.send(.disconnected(reason: "the bus went away"))
    served.settle()
    #expect(served.connection.isClosed)
    #expect(!served.service.needsSamples)
    #expect(served.service.claimedReadings.isEmpty)
    #expect(served.claimsChangedCount == 3)
    // No bus: no other daemon can hold the buffers.
    #expect(served.service.buffersAllowed)
    #expect(served.buffersAllowedChanges == [true])
    served.service.signalChanges([.device(.leftUp)])
    served.advance(by: .seconds(2))
    #expect(served.bus.connections.count == 2)
    served.connection.send(.name(Self.name, .owned))
    served.settle()
    #expect(served.value("AccelerometerOrientation") == .string("undefined"))
    served.claim("Accelerometer", by: ":1.8")
    #expect(served.value("AccelerometerOrientation") == .string("left-up"))
    #expect(served.service.status.hasSuffix("; 1 client claims the accelerometer"))
  }
}
