import OrientBus
import OrientConfig
import OrientCore
import OrientSystem

/// orientd's state served as iio-sensor-proxy's `net.hadess.SensorProxy` on a message bus,
/// on the main loop (see the threading model in Daemon.swift).
///
/// The bus is a second face of the state the socket serves; it never holds the daemon up. An
/// unreachable bus, a refused name or a bus that goes away is logged, and the connection is
/// tried again 2 s later, then at doubling intervals up to a minute, while the socket goes on
/// serving. The name is requested with queueing and never taken from its owner: behind
/// iio-sensor-proxy orientd waits, and gets the name when it leaves.
///
/// Claims are kept per client (`SensorProxyClaims`), at most `clientLimit` clients, each
/// watched until it leaves the bus; while no client claims a sensor, what D-Bus shows of it
/// stays still (`SensorProxyAccelerometer`, `SensorProxyReadings`), and a claim is what keeps
/// the light sensor, the proximity sensor and the compass read.
///
/// While another process owns the name (iio-sensor-proxy), orientd takes no device's buffer
/// from it (`buffersAllowedChanged`): that daemon's clients see the device turn.
///
/// The bus is reached through `ServiceBus`: sd-bus's `BusConnection` in the daemon, a scripted
/// bus in the tests, which play the bus's events and record what the service sends.
///
/// Why this type is large (about 17 stored properties, over 400 lines): iio-sensor-proxy's
/// interface is one service with four sensors, and the service owns its bus connection and
/// its reconnection, the name it owns or waits for (and who owns it else), the claims with
/// their users and the calls that wait for a client's user id, and the pure property states
/// it signals from. The decisions are in `SensorProxyClaims`, `SensorProxyAccelerometer`,
/// `SensorProxyReadings` and `ClaimantUsers`; the methods here are the interface's surface.
final class SensorProxyService {
  private let address: BusAddress
  private let loop: EventLoop
  private let open: ServiceBusOpener
  private var accelerometer: SensorProxyAccelerometer
  private var readings = SensorProxyReadings()
  private var claims: SensorProxyClaims
  private var connection: (any ServiceBus)?
  private var retry = RetrySchedule()
  private var retryTimer: LoopTimer?
  /// Whether the name is ours: signals are sent only then.
  private var owned = false
  /// The last problem logged, so that a lasting one is logged once, not at every attempt.
  private var lastProblem: String?
  /// Who owns the name while orientd waits in the bus's queue (`orientd (pid 123)`), once
  /// the bus has said.
  private var owner: String?

  /// The most clients that may hold claims at once. Each costs a match rule on the bus, and
  /// the system bus allows a connection 512 of them by default; dbus-daemon also lets one
  /// user hold only 256 connections.
  static let clientLimit = 128
  /// The most clients of one user (other than root) that may hold claims at once: a user
  /// cannot take every place from the desktop's clients.
  static let clientsPerUser = 16
  /// Which user runs each client: asked of the bus once per client, a few at a time.
  private var users = ClaimantUsers()
  /// The calls of clients whose users the bus is being asked for, in order, by client. Each
  /// call kept is a small message (a call with arguments never gets here), and
  /// `ClaimantUsers` bounds how many wait.
  private var waitingCalls: [String: [(claiming: Bool, sensor: SensorKind, reply: BusPendingReply)]] = [:]

  /// Serves `state` (the tracker's snapshot) on `bus`, with `AccelerometerOrientation`
  /// following `source`, once started; `open` connects to the bus (sd-bus unless a test
  /// scripts it).
  init(
    bus: BusChoice, source: SensorProxyAccelerometer.Source, state: [StateChange], loop: EventLoop,
    open: @escaping ServiceBusOpener = BusConnection.openForService
  ) {
    address = bus == .session ? .session : .system
    self.loop = loop
    self.open = open
    accelerometer = SensorProxyAccelerometer(source: source, claimed: false)
    claims = SensorProxyClaims(clientLimit: Self.clientLimit, clientsPerUser: Self.clientsPerUser)
    for change in state {
      _ = accelerometer.apply(change)
      _ = readings.apply(change)
    }
  }

  /// Connects to the bus; until it has said whether the name is orientd's, no buffer may be
  /// taken (`buffersAllowedChanged`).
  func start() { connect() }

  /// Whether capture may take a device's buffer: not while the bus has not said that the name
  /// is orientd's, nor while another process owns it. With no bus at all (none to connect to),
  /// no other daemon can serve its clients either, and buffers may be taken.
  private(set) var buffersAllowed = false {
    didSet { if buffersAllowed != oldValue { buffersAllowedChanged(buffersAllowed) } }
  }
  /// Called when `buffersAllowed` changes.
  var buffersAllowedChanged: (Bool) -> Void = { _ in }

  deinit {
    retryTimer?.cancel()
    connection?.close()
  }

  /// Whether the bus connection is open and the name owned, and how many clients claim the
  /// accelerometer, for `info`.
  var status: String {
    let name = SensorProxyInterface.busName
    guard connection != nil else { return "not connected to \(address)" }
    guard owned else { return "waiting for \(name) on \(address)" + (owner.map { ", owned by \($0)" } ?? "") }
    let claimants = claims.claimants(of: .accelerometer)
    let who = claimants == 1 ? "1 client claims" : "\(claimants) clients claim"
    let others = SensorKind.readingKinds.compactMap { kind -> String? in
      let count = claims.claimants(of: kind)
      return count == 0 ? nil : "\(count) the \(kind.noun)"
    }
    return "serving \(name) on \(address); \(who) the accelerometer" + others.map { ", " + $0 }.joined()
  }

  /// Applies the changes published to the bus's view and signals the properties they changed.
  func signalChanges(_ changes: [StateChange]) {
    var changed: [SensorProxyAccelerometer.Property] = []
    var readingsChanged: [SensorProxyReadings.Property] = []
    for change in changes {
      changed += accelerometer.apply(change)
      readingsChanged += readings.apply(change)
    }
    signal(changed)
    signal(readingsChanged)
  }

  /// Applies a new tilt and signals it, if it changed the property.
  func signalTilt(_ tilt: AccelerometerTilt) { signal(accelerometer.apply(tilt: tilt)) }

  // MARK: Connection

  private func connect() {
    retryTimer?.cancel()
    do {
      let connection = try open(address, loop, Self.screen) { [unowned self] event in self.handle(event) }
      self.connection = connection
      try export(on: connection)
      try connection.requestName(SensorProxyInterface.busName)
    } catch {
      fail("cannot connect to \(address): \(error)")
      // No bus: no daemon can own the name.
      buffersAllowed = true
    }
  }

  /// Drops the connection, logs why (once while the reason stays the same) and tries again later.
  private func fail(_ problem: String) {
    connection?.close()
    connection = nil
    owned = false
    owner = nil
    forgetClaims()
    let delay = retry.delayAfterFailure()
    let text = "D-Bus: \(problem); serving the socket only, retrying in \(delay.wholeSeconds) s"
    if problem != lastProblem {
      Log.warning(text)
    } else {
      Log.debug(text)
    }
    lastProblem = problem
    if retryTimer == nil { retryTimer = LoopTimer(loop: loop) { [unowned self] _ in self.connect() } }
    retryTimer?.schedule(after: delay)
  }

  private func handle(_ event: BusEvent) {
    switch event {
    case .name(let name, .owned):
      owned = true
      owner = nil
      buffersAllowed = true
      retry.reset()
      lastProblem = nil
      Log.info("D-Bus: serving \(name) on \(address)")
      // As iio-sensor-proxy does once it has its name: every property, for clients that
      // were waiting for the name to appear.
      emit(SensorProxyInterface.properties + SensorProxyInterface.compassProperties)
    case .name(let name, .queued):
      owned = false
      buffersAllowed = false
      retry.reset()
      lastProblem = nil
      Log.info(
        "D-Bus: \(name) is owned by another process (iio-sensor-proxy?); waiting for it in the bus's queue, "
          + "polling the sensors meanwhile and leaving their buffers to it")
      askForOwner(of: name)
    case .name(let name, .lost):
      // Only a bus that drops queued requests (or a bus administrator) takes it: ask again later.
      buffersAllowed = false
      fail("lost the name \(name)")
    case .nameRequestFailed(let name, let error):
      // Whether another process owns it cannot be told: its buffers stay untouched.
      buffersAllowed = false
      fail("the bus refused \(name) (\(error)); is orientd's D-Bus policy file installed?")
    case .peerGone(let client):
      users.left(client)
      for kind in claims.disconnect(client) { updateClaimed(kind) }
    case .disconnected(let reason):
      // No bus: nobody owns the name.
      buffersAllowed = true
      fail("lost \(address): \(reason)")
    }
  }

  /// Asks the bus who owns `name`, for `info` and doctor: its process's name and id.
  private func askForOwner(of name: String) {
    owner = nil
    do {
      try connection?.processID(of: name) { [unowned self] pid in
        guard let pid, !self.owned else { return }
        let command = ProcessName.of(pid).map { ProtocolError.printable(Substring($0)) }
        self.owner = command.map { "\($0) (pid \(pid))" } ?? "pid \(pid)"
        Log.info("D-Bus: \(name) is owned by \(self.owner ?? "")")
      }
    } catch {
      // Once each time orientd queues for the name; `info` and doctor then name no owner.
      Log.warning("D-Bus: \(error); the owner of \(name) stays unknown")
    }
  }

  /// Exports the two objects of iio-sensor-proxy, each property with a getter of its own.
  private func export(on connection: any ServiceBus) throws(SystemError) {
    let call: (BusMethodCall) -> BusReply? = { [unowned self] call in self.answer(call) }
    let exported = { [unowned self] (property: SensorProxyProperty) in
      BusProperty(property.name, property.type) { [unowned self] in self.value(of: property) }
    }
    try connection.export(
      BusObject(
        path: SensorProxyInterface.path, interface: SensorProxyInterface.interface,
        methods: SensorProxyInterface.methods(SensorProxyInterface.mainSensors),
        properties: SensorProxyInterface.properties.map(exported), call: call))
    try connection.export(
      BusObject(
        path: SensorProxyInterface.compassPath, interface: SensorProxyInterface.compassInterface,
        methods: SensorProxyInterface.methods([.compass]),
        properties: SensorProxyInterface.compassProperties.map(exported), call: call))
  }

  // MARK: Serving

  /// The longest object path, and the longest string argument, a method call may carry: the
  /// D-Bus limit for a name, far above any path or name orientd serves.
  static let longestName = 255

  /// Refuses, before sd-bus dispatches them, method calls that would cost the loop out of
  /// proportion: sd-bus looks an object path up by each of its prefixes (quadratic in its
  /// length: 0.8 s for a 64 KB path), and echoes an unknown property's name in its error (a
  /// second copy of a 32 MiB argument). No call orientd answers needs either.
  static func screen(_ call: BusCallPreview) -> BusReply? {
    if call.pathLength > longestName {
      return .error(
        name: "org.freedesktop.DBus.Error.UnknownObject", message: "no object has a path this long")
    }
    var tooLong = false
    call.forEachLeadingStringLength { length in
      tooLong = length > longestName
      return !tooLong
    }
    guard tooLong else { return nil }
    return .error(
      name: "org.freedesktop.DBus.Error.InvalidArgs",
      message: "an argument is longer than \(longestName) bytes")
  }

  private func value(of property: SensorProxyProperty) -> BusValue {
    switch property {
    case .accelerometer(.hasAccelerometer): .boolean(accelerometer.hasAccelerometer)
    case .accelerometer(.accelerometerOrientation): .string(accelerometer.orientationText)
    case .accelerometer(.accelerometerTilt): .string(accelerometer.tilt.rawValue)
    case .reading(.hasAmbientLight): .boolean(readings.hasAmbientLight)
    case .reading(.lightLevelUnit): .string(readings.lightLevel.unit.rawValue)
    case .reading(.lightLevel): .double(readings.lightLevel.value)
    case .reading(.hasProximity): .boolean(readings.hasProximity)
    case .reading(.proximityNear): .boolean(readings.proximityNear)
    case .reading(.hasCompass): .boolean(readings.hasCompass)
    case .reading(.compassHeading): .double(readings.compassHeading)
    }
  }

  /// Claim and Release: an empty reply, as iio-sensor-proxy gives, whether the sensor exists
  /// or not and however often it is repeated; only a client over a limit is refused.
  ///
  /// A new client's claim waits for the bus to say which user runs it (for the limit per
  /// user), unless that is known already; the client's later calls wait behind it, so they
  /// take effect in order.
  private func answer(_ call: BusMethodCall) -> BusReply? {
    guard let (claiming, sensor) = SensorProxyInterface.claim(call.member), connection != nil else {
      return .empty
    }
    let client = call.sender
    let needsUser = claiming && !claims.holdsClaims(client)
    // Refused at once, without asking the bus who the client is.
    if needsUser, claims.isFull, !users.isWaiting(client) { return Self.refusal(.tooManyClients) }
    switch users.route(client, needsUser: needsUser) {
    case .busy:
      return Self.busy
    case .now(let user):
      return claiming ? claim(sensor, by: client, user: user ?? 0) : release(sensor, by: client)
    case .wait:
      waitingCalls[client, default: []].append((claiming, sensor, call.deferReply()))
      askAboutWaitingClients()
      return nil
    }
  }

  /// Asks the bus about the clients whose turn it is.
  private func askAboutWaitingClients() {
    for client in users.questionsToAsk() {
      do throws(SystemError) {
        guard let connection else { throw SystemError("ask the bus", code: .notConnected) }
        try connection.unixUser(of: client) { [unowned self] user in self.userKnown(user, of: client) }
      } catch {
        userKnown(nil, of: client)
      }
    }
  }

  /// The bus said which user runs `client` (nil: it did not know, the client is gone, or it
  /// could not be asked): answers the calls that waited for it, in order.
  private func userKnown(_ user: UInt32?, of client: String) {
    _ = users.answered(user, for: client)
    for (claiming, sensor, reply) in waitingCalls.removeValue(forKey: client) ?? [] {
      if !claiming {
        reply.send(release(sensor, by: client))
      } else if let user {
        reply.send(claim(sensor, by: client, user: user))
      } else {
        reply.send(
          .error(name: "org.freedesktop.DBus.Error.Failed", message: "the bus does not know \(client)"))
      }
    }
    askAboutWaitingClients()
  }

  private func claim(_ sensor: SensorKind, by client: String, user: UInt32) -> BusReply {
    guard let connection else { return .empty }
    switch claims.claim(sensor, by: client, user: user) {
    case .refused(let refusal):
      return Self.refusal(refusal)
    case .repeated:
      return .empty
    case .claimed(let newClient):
      if newClient {
        do {
          try connection.watchPeer(client)
        } catch {
          // Unwatched, the claim could outlive its client: refuse it.
          _ = claims.disconnect(client)
          return .error(
            name: "org.freedesktop.DBus.Error.Failed", message: "orientd cannot record the claim: \(error)")
        }
      }
      updateClaimed(sensor)
      return .empty
    }
  }

  private func release(_ sensor: SensorKind, by client: String) -> BusReply {
    claims.release(sensor, by: client)
    if !claims.holdsClaims(client) { connection?.forgetPeer(client) }
    updateClaimed(sensor)
    return .empty
  }

  private static func refusal(_ refusal: SensorProxyClaims.Refusal) -> BusReply {
    let limit =
      switch refusal {
      case .tooManyClients: "orientd keeps the claims of at most \(clientLimit) clients"
      case .tooManyOfUser: "orientd keeps the claims of at most \(clientsPerUser) clients of one user"
      }
    return .error(
      name: "org.freedesktop.DBus.Error.LimitsExceeded", message: limit + "; release claims first")
  }

  /// Too many calls wait for the bus to name their callers' users.
  private static let busy = BusReply.error(
    name: "org.freedesktop.DBus.Error.LimitsExceeded",
    message: "orientd has too many claims to check; try again")

  /// `kind`'s claims changed: what is shown of it follows, and the daemon hears of a first
  /// claim or a last release.
  private func updateClaimed(_ kind: SensorKind) {
    let claimed = claims.claimants(of: kind) > 0
    if kind == .accelerometer {
      signal(accelerometer.setClaimed(claimed))
    } else {
      signal(readings.setClaimed(kind, claimed))
    }
    if claimed != lastClaimed.contains(kind) {
      if claimed { lastClaimed.insert(kind) } else { lastClaimed.remove(kind) }
      claimsChanged()
    }
  }

  /// Whether a client claims the accelerometer, so its readings must stay current.
  var needsSamples: Bool { lastClaimed.contains(.accelerometer) }
  /// The reading sensors some client claims, which must be read.
  var claimedReadings: Set<SensorKind> { lastClaimed.subtracting([.accelerometer]) }
  private var lastClaimed: Set<SensorKind> = []
  /// Called when a sensor gets its first claim or loses its last.
  var claimsChanged: () -> Void = {}

  /// The bus connection went: every client's claims went with it, and clients of the next
  /// connection see a service that has just started.
  private func forgetClaims() {
    claims.removeAll()
    users.removeAll()
    waitingCalls = [:]
    accelerometer.restart()
    readings.forgetClaims()
    if !lastClaimed.isEmpty {
      lastClaimed = []
      claimsChanged()
    }
  }

  private func signal(_ changed: [SensorProxyAccelerometer.Property]) {
    emit(changed.map(SensorProxyProperty.accelerometer))
  }

  private func signal(_ changed: [SensorProxyReadings.Property]) {
    emit(changed.map(SensorProxyProperty.reading))
  }

  /// One `PropertiesChanged` for the main object's properties among `changed`, then one for
  /// the compass's; the names are spelled here, for the bus.
  private func emit(_ changed: [SensorProxyProperty]) {
    guard owned, let connection else { return }
    for (path, interface, onCompass) in [
      (SensorProxyInterface.path, SensorProxyInterface.interface, false),
      (SensorProxyInterface.compassPath, SensorProxyInterface.compassInterface, true),
    ] {
      let names = changed.filter { $0.onCompass == onCompass }.map(\.name)
      if !names.isEmpty { connection.emitPropertiesChanged(path: path, interface: interface, names: names) }
    }
  }
}
