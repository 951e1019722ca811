import OrientBus
import OrientCore
import OrientSystem
import Testing

@testable import OrientDaemon

/// A `SensorProxyService` served in the test process: on an event loop of the test's own with a
/// scripted clock, on a `ScriptedBus`, with what it tells the daemon recorded.
final class ServedSensorProxy {
  static let name = "net.hadess.SensorProxy"
  static let main = "/net/hadess/SensorProxy"
  static let compass = "/net/hadess/SensorProxy/Compass"

  /// The daemon's state at start: an accelerometer standing upright, a light sensor reading
  /// 10 lux, a proximity sensor that sees something near, a compass heading east.
  static let standing: [StateChange] = [
    .sensor(online: true), .device(.normal), .orientation(.normal),
    .light(.value(LightLevel(10, unit: .lux))),
    .proximity(.value(true)), .heading(.value(90)),
  ]

  let clock = ScriptedClock()
  let loop: EventLoop
  let bus: ScriptedBus
  let service: SensorProxyService
  /// How many times the service said a sensor got its first claim or lost its last.
  private(set) var claimsChangedCount = 0
  /// Each change of `buffersAllowed` the service reported, in order.
  private(set) var buffersAllowedChanges: [Bool] = []

  /// The service started on `state` with its tilt vertical; with `owned`, the bus has given it
  /// its name (and the signals of that are already recorded). With `reachable` false no bus
  /// can be connected to at start.
  init(
    source: SensorProxyAccelerometer.Source = .device, state: [StateChange] = standing, owned: Bool = true,
    reachable: Bool = true
  ) throws {
    let clock = clock
    loop = try EventLoop(clock: { clock.now })
    bus = ScriptedBus(loop: loop)
    bus.reachable = reachable
    service = SensorProxyService(bus: .system, source: source, state: state, loop: loop, open: bus.open)
    service.signalTilt(.vertical)
    service.claimsChanged = { [unowned self] in claimsChangedCount += 1 }
    service.buffersAllowedChanged = { [unowned self] in buffersAllowedChanges.append($0) }
    service.start()
    if owned {
      connection.send(.name(Self.name, .owned))
      settle()
    }
  }

  /// The connection the service opened last.
  var connection: ScriptedBusConnection {
    guard let current = bus.current else {
      Issue.record("the service opened no connection")
      return ScriptedBusConnection(loop: loop) { _ in }
    }
    return current
  }

  /// Runs the loop until what the bus was given to deliver has been delivered.
  func settle() {
    for _ in 0..<100 {
      do {
        try loop.runRound(waitingAtMost: .zero)
      } catch {
        Issue.record("the loop failed: \(error)")
        return
      }
      if bus.connections.allSatisfy(\.isIdle) { return }
    }
    Issue.record("the bus still has something to deliver")
  }

  /// Moves the clock on by `duration`, then runs the loop: the timers due by then fire.
  func advance(by duration: Duration) {
    clock.advance(by: duration)
    settle()
  }

  /// `client`, run by `user`, claims `sensor` (`Accelerometer`, `Light`, ...) and the call is
  /// answered, the bus answering who runs the client if the service asks; returns the
  /// traffic the claim caused.
  @discardableResult
  func claim(_ sensor: String, by client: String, user: UInt32 = 1000) -> [BusTraffic] {
    let start = connection.traffic.count
    connection.call("Claim\(sensor)", from: client, at: sensor == "Compass" ? Self.compass : Self.main)
    settle()
    if connection.traffic(since: start).contains(.askUser(client)) {
      connection.answerUser(of: client, with: user)
      settle()
    }
    return connection.traffic(since: start)
  }

  /// `client` releases `sensor`; returns the traffic the release caused.
  @discardableResult
  func release(_ sensor: String, by client: String) -> [BusTraffic] {
    let start = connection.traffic.count
    connection.call("Release\(sensor)", from: client, at: sensor == "Compass" ? Self.compass : Self.main)
    settle()
    return connection.traffic(since: start)
  }

  /// The daemon publishes `changes`; returns the traffic they caused.
  @discardableResult
  func publish(_ changes: [StateChange]) -> [BusTraffic] {
    let start = connection.traffic.count
    service.signalChanges(changes)
    return connection.traffic(since: start)
  }

  /// The value of `property` on the main object, as a client reads it.
  func value(_ property: String, at path: String = main) -> BusValue? {
    connection.value(of: property, at: path)
  }
}

/// A `PropertiesChanged` on the main object.
func mainChanged(_ names: String...) -> BusTraffic {
  .propertiesChanged(path: ServedSensorProxy.main, interface: "net.hadess.SensorProxy", names: names)
}

/// A `PropertiesChanged` on the compass object.
func compassChanged(_ names: String...) -> BusTraffic {
  .propertiesChanged(
    path: ServedSensorProxy.compass, interface: "net.hadess.SensorProxy.Compass", names: names)
}

/// An empty method return to `client`'s call of `member`.
func answered(_ member: String, to client: String) -> BusTraffic {
  .reply(client: client, member: member, .empty)
}
