import OrientSystem
import Testing

@testable import OrientBus

/// Runs `loop` until a handler stops it, failing the test instead of hanging after `seconds`.
private func run(_ loop: EventLoop, atMost limit: Duration = .seconds(10)) throws {
  let guardTimer = LoopTimer(loop: loop) { _ in
    Issue.record("the loop was still running after \(limit)")
    loop.stop()
  }
  guardTimer.schedule(after: limit)
  try loop.run()
}

/// How many times `connection` wakes while the loop runs for `duration` with nothing to do.
private func wakeUps(of connection: BusConnection, idling loop: EventLoop, for duration: Duration) throws
  -> Int
{
  let before = connection.wakeUpsForTesting
  var fired = false
  let later = LoopTimer(loop: loop) { _ in
    fired = true
    loop.stop()
  }
  later.schedule(after: duration)
  try run(loop)
  #expect(fired, "the loop stopped before the timer fired")
  return connection.wakeUpsForTesting - before
}

/// Runs the loop until a round trip to the bus daemon completes: the daemon answers in order,
/// so whatever it sent the connection before (a RequestName reply after `NameAcquired`) has
/// been handled by then.
private func settle(_ connection: BusConnection, _ loop: EventLoop) throws {
  var done = false
  try connection.callMethodForTesting(
    destination: "org.freedesktop.DBus", path: "/org/freedesktop/DBus", interface: "org.freedesktop.DBus",
    member: "GetId"
  ) { _ in
    done = true
    loop.stop()
  }
  try run(loop)
  #expect(done)
}

/// Collects a connection's events and stops the loop when the awaited one arrives.
private final class EventLog {
  let loop: EventLoop
  var events: [BusEvent] = []
  private var awaited: (BusEvent) -> Bool = { _ in false }

  init(loop: EventLoop) { self.loop = loop }

  func record(_ event: BusEvent) {
    events.append(event)
    if awaited(event) { loop.stop() }
  }

  /// Runs the loop until `event` arrives.
  func wait(for event: BusEvent) throws {
    try wait(until: { $0 == event }, "\(event)")
  }

  /// Runs the loop until an event that `matches` arrives.
  func wait(until matches: @escaping (BusEvent) -> Bool, _ what: String) throws {
    if events.contains(where: matches) { return }
    awaited = matches
    try run(loop)
    awaited = { _ in false }
    #expect(events.contains(where: matches), "no \(what) among \(events)")
  }
}

private let name = "net.hadess.SensorProxy"

/// A new private bus, a loop, and a connection to the bus on it whose events go to a log.
private func connectedToPrivateBus() throws -> (PrivateBus, EventLoop, EventLog, BusConnection) {
  let bus = try PrivateBus()
  let loop = try EventLoop()
  let log = EventLog(loop: loop)
  let connection = try BusConnection(.address(bus.address), loop: loop) { log.record($0) }
  return (bus, loop, log, connection)
}

@Suite("A bus connection on the event loop, against a private dbus-daemon")
struct BusConnectionTests {
  @Test("A connection gets a free name, and busctl lists it as the name's owner")
  func acquiresFreeName() throws {
    let (bus, loop, log, connection) = try connectedToPrivateBus()
    try connection.requestName(name)
    try log.wait(for: .name(name, .owned))
    #expect(log.events == [.name(name, .owned)])
    #expect(connection.ownership(of: name) == .owned)
    let unique = try #require(connection.uniqueNameForTesting)
    #expect(try bus.owners()[name] == unique)
    // Connecting, authenticating and getting the name take a handful of wake-ups (5 here); a
    // descriptor left watched for an event that is always ready would make it thousands.
    #expect(connection.wakeUpsForTesting < 30, "\(connection.wakeUpsForTesting) wake-ups to get a name")
    // Once its messages are out and the answers in, the connection watches for input only:
    // nothing wakes it.
    try settle(connection, loop)
    #expect(try wakeUps(of: connection, idling: loop, for: .milliseconds(200)) == 0)
  }

  @Test("A name that another connection owns is queued for, then taken when the owner leaves")
  func queuesBehindOwnerAndTakesOver() throws {
    let bus = try PrivateBus()
    let loop = try EventLoop()
    let firstLog = EventLog(loop: loop)
    let first = try BusConnection(.address(bus.address), loop: loop) { firstLog.record($0) }
    try first.requestName(name)
    try firstLog.wait(for: .name(name, .owned))

    let secondLog = EventLog(loop: loop)
    let second = try BusConnection(.address(bus.address), loop: loop) { secondLog.record($0) }
    try second.requestName(name)
    try secondLog.wait(for: .name(name, .queued))
    #expect(second.ownership(of: name) == .queued)
    // The queue does not replace the owner.
    #expect(try bus.owners()[name] == first.uniqueNameForTesting)
    #expect(firstLog.events == [.name(name, .owned)])

    first.close()
    try secondLog.wait(for: .name(name, .owned))
    #expect(secondLog.events == [.name(name, .queued), .name(name, .owned)])
    #expect(try bus.owners()[name] == second.uniqueNameForTesting)
  }

  @Test("The bus daemon exiting is reported, the loop goes on without spinning, and a new connection works")
  func reportsBusExitAndStaysQuiet() throws {
    let (bus, loop, log, connection) = try connectedToPrivateBus()
    try connection.requestName(name)
    try log.wait(for: .name(name, .owned))

    bus.kill()
    try log.wait(
      until: {
        if case .disconnected = $0 { true } else { false }
      }, "disconnection")
    #expect(!connection.isOpen)
    #expect(!connection.isWatchingForTesting)
    if case .disconnected(let reason) = log.events.last {
      #expect(reason.contains(bus.address), "the reason does not name the bus: \(reason)")
    }

    // A timer still fires on the loop, and meanwhile nothing wakes the dead connection.
    #expect(try wakeUps(of: connection, idling: loop, for: .milliseconds(200)) == 0)

    // Reconnecting is a new connection, here to a new bus, on the same loop.
    let newBus = try PrivateBus()
    let newLog = EventLog(loop: loop)
    let reconnected = try BusConnection(.address(newBus.address), loop: loop) { newLog.record($0) }
    try reconnected.requestName(name)
    try newLog.wait(for: .name(name, .owned))
    #expect(try newBus.owners()[name] == reconnected.uniqueNameForTesting)
  }

  @Test("A method call gets its reply, and a call nobody answers times out on the loop's timer")
  func callsCompleteOrTimeOut() throws {
    let (bus, loop, _, connection) = try connectedToPrivateBus()

    var answered: String?? = .none
    try connection.callMethodForTesting(
      destination: "org.freedesktop.DBus", path: "/org/freedesktop/DBus", interface: "org.freedesktop.DBus",
      member: "GetId"
    ) { error in
      answered = .some(error)
      loop.stop()
    }
    try run(loop)
    #expect(answered == .some(nil))

    // Now that the connection runs, a call's timeout is armed on the loop; once the call is
    // answered the timer is gone and does not wake the connection.
    answered = .none
    try connection.callMethodForTesting(
      destination: "org.freedesktop.DBus", path: "/org/freedesktop/DBus", interface: "org.freedesktop.DBus",
      member: "GetId", timeout: .milliseconds(100)
    ) { error in
      answered = .some(error)
      loop.stop()
    }
    try run(loop)
    #expect(answered == .some(nil))
    #expect(try wakeUps(of: connection, idling: loop, for: .milliseconds(300)) == 0)

    // A peer that is on the bus but never reads: its loop is not run once it owns its name.
    let silentLoop = try EventLoop()
    let silentLog = EventLog(loop: silentLoop)
    let silent = try BusConnection(.address(bus.address), loop: silentLoop) { silentLog.record($0) }
    try silent.requestName("org.example.Silent")
    try silentLog.wait(for: .name("org.example.Silent", .owned))

    var timedOut: String?? = .none
    try connection.callMethodForTesting(
      destination: "org.example.Silent", path: "/", interface: "org.example.Silent", member: "Nothing",
      timeout: .milliseconds(100)
    ) { error in
      timedOut = .some(error)
      loop.stop()
    }
    try run(loop)
    let error = try #require(timedOut ?? nil, "the unanswered call completed without an error")
    #expect(error.hasPrefix("org.freedesktop.DBus.Error.NoReply"))
  }

  @Test("A handler may close its connection, and then hears nothing more from it")
  func handlerClosesConnection() throws {
    let bus = try PrivateBus()
    let loop = try EventLoop()
    var events: [BusEvent] = []
    var connection: BusConnection?
    connection = try BusConnection(.address(bus.address), loop: loop) { event in
      events.append(event)
      connection?.close()
      loop.stop()
    }
    try connection?.requestName(name)
    try run(loop)
    #expect(events == [.name(name, .owned)])
    let closed = try #require(connection)
    #expect(!closed.isOpen && !closed.isWatchingForTesting)
    #expect(try wakeUps(of: closed, idling: loop, for: .milliseconds(100)) == 0)
    #expect(events.count == 1)
    connection = nil
  }

  @Test("Connecting where no bus listens fails with the errno and the address")
  func unreachableBusIsATypedError() throws {
    let loop = try EventLoop()
    let address = "unix:path=/nonexistent/orientd-test/bus"
    do {
      _ = try BusConnection(.address(address), loop: loop) { _ in }
      Issue.record("connecting to \(address) succeeded")
    } catch {
      #expect(error.code == .noSuchFile)
      #expect(error.operation.contains(address))
    }
  }
}
