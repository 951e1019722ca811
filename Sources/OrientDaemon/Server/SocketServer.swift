import OrientCore
import OrientSystem

/// Serves the orientation protocol on a listening Unix stream socket.
///
/// Three jobs, three types: the `ClientAcceptor` takes connections (within `Admission`'s
/// limits), each `ClientConnection` reads, paces and writes its own client, and its
/// `SessionHandler` runs the protocol's commands with the daemon, the `SessionHost`. The server
/// holds the clients: it publishes changes and samples to them, tells them when the state is
/// current again or their change is saved, counts what they need of the sensor, serves those
/// with input left over in a later round, and drops idle clients.
///
/// Every client gets the state on connect and each change after it, with its own orientation
/// once it has declared the orientations it supports (`ClientViews`). No client can take more
/// than its share: each gets at most `ClientConnection.linesPerRound` lines served per loop
/// round, its queued output is bounded (`ClientConnection.outputLimit`), one user holds at
/// most `maxClientsPerUser` connections, and a control command's sender is not served again
/// until its change is saved.
///
/// Why this type is large (about 20 stored properties, about 400 lines): it holds the client
/// table and everything that is per server rather than per client: the limits and
/// permissions, what the clients need of the sensor (`SubscriberCounts`) and of each declared
/// orientation set (`ClientViews`), the shared read buffer, the backlog of clients with input
/// left, the idle sweep and its timers, and the rate-limited warnings that must be shared so
/// that many clients cannot flood the log.
final class SocketServer {
  /// The limits that keep one client, or one user, from starving the rest.
  struct Limits: Sendable {
    /// The most clients served at once.
    var maxClients: Int
    /// The most clients one user other than root and the daemon's own may hold.
    var maxClientsPerUser: Int
    /// A client that has sent no command and read nothing it was sent in this long is dropped.
    var idleTimeout = Duration.seconds(30)

    /// Limits with the default idle timeout.
    init(maxClients: Int, maxClientsPerUser: Int) {
      self.maxClients = maxClients
      self.maxClientsPerUser = maxClientsPerUser
    }
  }

  /// The daemon, which the sessions ask for the state, control, saving and `info`.
  unowned let host: SessionHost
  /// Who may run control commands and read `info`'s hooks and paths.
  let control: any ControlGate
  /// Who may hear the compass heading.
  let headingPermission = HeadingPermission()
  private let loop: EventLoop
  private let limits: Limits
  private var acceptor: ClientAcceptor?
  private var clients: [Int32: ClientConnection] = [:]
  private var counts = SubscriberCounts()
  /// The sets of orientations clients declared with `supports`, and what each set was told.
  private var views = ClientViews()
  /// One buffer for every client's reads: input waits in a client's own array only while it
  /// is not served yet.
  private var readBuffer = [UInt8](repeating: 0, count: 4096)
  /// Limits the warning that a slow subscriber's backlog became the current state; one limit
  /// for all clients, so that many slow ones cannot flood the log.
  var overflowWarning = RateLimitedWarning()
  /// Limits the warning that a client was dropped for not reading its replies, for all clients.
  var stalledReplyWarning = RateLimitedWarning()
  /// Refused and idle clients share one limit: both are what other users can make orientd log.
  var refusalWarning = RateLimitedWarning()
  /// Clients with input left to serve in a later round.
  private var backlog: Set<Int32> = []
  /// Clients dropped since the heap was last given back (the idle sweep does it).
  private var droppedSinceTrim = 0
  private var resume: LoopTimer?
  private var idleSweep: LoopTimer?
  /// Answers the `get`s that waited `readingWait` for a reading.
  private var readingWaitTimer: LoopTimer?
  /// Whether the idle sweep is armed: only while there is something for it to do, so that a
  /// daemon without clients never wakes for it.
  private var sweeping = false

  /// Starts accepting on `listener`, a listening non-blocking socket.
  init(
    loop: EventLoop, listener: consuming FileDescriptor, limits: Limits, control: any ControlGate,
    host: SessionHost
  ) throws(SystemError) {
    self.loop = loop
    self.limits = limits
    self.control = control
    self.host = host
    resume = LoopTimer(loop: loop) { [unowned self] _ in self.serveBacklog() }
    readingWaitTimer = LoopTimer(loop: loop) { [unowned self] _ in self.answerWaiting() }
    idleSweep = LoopTimer(loop: loop) { [unowned self] _ in self.dropIdleClients() }
    let admission = Admission(
      maxClients: limits.maxClients, maxClientsPerUser: limits.maxClientsPerUser,
      ownUID: ProcessCredentials.effectiveUserID)
    acceptor = try ClientAcceptor(loop: loop, listener: listener, admission: admission, server: self)
  }

  // MARK: What the daemon reads and tells

  /// Whether greetings and `get` replies wait for a fresh state (the daemon sets it while
  /// the sensor is idle, so that nothing stale is sent as current).
  var holdsStaleState = false

  /// Whether any client subscribes to device orientation changes.
  var wantsDevice: Bool { counts.wantsDevice }

  /// Whether any client streams samples.
  var wantsSamples: Bool { counts.wantsSamples }

  /// Whether any client waits for a fresh state.
  var awaitsFreshState: Bool {
    clients.values.contains { client in
      switch client.state.freshWait {
      case .greeting?: true
      case .getReply(let keys)?: keys.map { !$0.intersection(.all).isEmpty } ?? true
      case nil: false
      }
    }
  }

  /// The reading sensors some client hears, or waits for a value of.
  var wantedReadings: Set<SensorKind> {
    var kinds = counts.wantedReadings
    for client in clients.values {
      if case .getReply(let keys?)? = client.state.freshWait { kinds.formUnion(keys.readingKinds) }
    }
    return kinds
  }

  /// How long a `get` waits for a reading sensor's value before it is answered with what is
  /// known (`undefined`): a sensor that sends only when its value changes may send nothing.
  static let readingWait = Duration.seconds(2)

  /// Whether a `get` of `keys` (nil: the whole orientation state) may be answered now: the
  /// orientation state it asks for is current, and so are the readings it asks for, unless it
  /// has waited `readingWait` for them since `waitingSince`.
  func mayAnswer(_ keys: Subscription?, waitingSince: MonotonicInstant?) -> Bool {
    let asksOrientation = keys.map { !$0.intersection(.all).isEmpty } ?? true
    if asksOrientation, holdsStaleState { return false }
    let readings = host.sensorReadings
    if (keys?.readingKinds ?? []).allSatisfy(readings.isCurrent) { return true }
    guard let waitingSince else { return false }
    return loop.now - waitingSince >= Self.readingWait
  }

  /// A client's `get` started waiting for readings: it is answered within `readingWait`.
  func awaitsReadings() { armReadingWait() }

  /// Arms the timer for the earliest `get` that waits for readings, or disarms it.
  private func armReadingWait() {
    let earliest = clients.values.compactMap { $0.state.freshWait != nil ? $0.readingWaitSince : nil }.min()
    if let earliest {
      readingWaitTimer?.schedule(at: earliest + Self.readingWait)
    } else {
      readingWaitTimer?.cancel()
    }
  }

  /// A reading sensor came, went or delivered: clients waiting for its value get their answer.
  func readingsChanged() { answerWaiting() }

  /// Sends changes to every client that subscribed to them, each in its own format, with
  /// its own orientation where it declared the orientations it supports. A client still
  /// waiting for its greeting gets none: the greeting it will get includes them.
  ///
  /// The changes are worked out once per declared set and rendered once per set and format,
  /// however many clients share them.
  func sendToSubscribers(_ changes: [StateChange], under policy: ScreenPolicy) {
    guard !changes.isEmpty, !clients.isEmpty else { return }
    var batches = [ClientScreenView.policy: RenderedChanges(changes)]
    for (view, own) in views.changesByView(changes, under: policy) {
      batches[view] = RenderedChanges(own)
    }
    for client in Array(clients.values) where client.state.hearsChanges {
      let bytes = batches[client.session.view]?.bytes(
        format: client.session.format, subscription: client.session.subscription)
      if let bytes, !bytes.isEmpty { client.send(bytes, isReply: false) }
    }
  }

  /// The state as a client of `view` is told it (greeting, `get`, a collapsed backlog): the
  /// whole orientation state, or the lines of `keys` (readings and the suggestion included).
  func state(for view: ClientScreenView, keys: Subscription? = nil) -> [StateChange] {
    let orientation = views.state(host.snapshot, for: view, under: host.policy)
    guard let keys else { return orientation }
    let readings = host.sensorReadings
    // A hinge is stated only where there is one, as in the whole state.
    let suggestion: [StateChange] = keys.includes(.suggestion) ? [.suggestion(host.suggested)] : []
    return orientation.filter(keys.includes) + keys.keys.compactMap(readings.change(for:)) + suggestion
  }

  /// A client that held `old` declares that it supports `set`; refused when none of `set`
  /// is allowed. Returns its view and the orientation it must be told now, if that changes.
  func declare(_ set: AllowedOrientations, replacing old: ClientScreenView) throws(PolicyError) -> (
    ClientScreenView, StateChange?
  ) {
    let view =
      set == .all ? ClientScreenView.policy : try ClientScreenView(supporting: set, under: host.policy)
    return (view, views.declare(view, replacing: old, under: host.policy))
  }

  /// Sends a sample to the clients that asked for samples, and only to them.
  func sendToSubscribers(_ sample: Sample) {
    guard counts.wantsSamples else { return }
    for client in Array(clients.values) where client.state.hearsChanges {
      guard let stream = client.session.sampleStream else { continue }
      let line = ProtocolRendering.line(for: sample, stream: stream, format: client.session.format)
      client.send(Array(line.utf8), isReply: false)
    }
  }

  /// The state is current again: clients waiting for it get their greeting or their `get`
  /// reply, and are served again.
  func stateIsFresh() { answerWaiting() }

  /// Answers every client whose greeting or `get` reply may be answered now.
  private func answerWaiting() {
    var answered = false
    for client in Array(clients.values) {
      guard let wait = client.state.freshWait else { continue }
      let keys: Subscription?
      switch wait {
      case .greeting:
        guard !holdsStaleState else { continue }
        keys = nil
      case .getReply(let asked):
        guard mayAnswer(asked, waitingSince: client.readingWaitSince) else { continue }
        keys = asked
      }
      _ = client.stateIsFresh()
      answered = true
      if case .getReply = wait {
        client.send(client.session.renderedState(keys: keys), isReply: true)
        client.send(.ok)
      } else {
        client.send(client.session.renderedState(), isReply: false)
      }
      guard client.state.isOpen else { continue }
      client.serve()
    }
    armReadingWait()
    // The clients answered may need nothing more of the sensors.
    if answered { host.needsChanged() }
  }

  /// The lines of the readings of `kinds` that are current now, for a client that starts to
  /// hear them.
  func currentReadingLines(_ kinds: [SensorKind], format: MessageFormat) -> [UInt8] {
    let readings = host.sensorReadings
    let lines = kinds.filter(readings.isCurrent).compactMap { readings.change($0) }
    return Array(lines.map { ProtocolRendering.line(for: $0, format: format) }.joined().utf8)
  }

  /// Every commit up to `generation` is durable, or failed with `failure`: the clients
  /// waiting for them get their `ok` (with the failure as a warning) and are served again.
  func committed(through generation: UInt64, failure: String? = nil) {
    for client in Array(clients.values) {
      guard client.committed(through: generation) else { continue }
      if let failure {
        client.send(.okWithWarning(ProtocolError(.notSaved, failure)))
      } else {
        client.send(.ok)
      }
      guard client.state.isOpen else { continue }
      client.serve()
    }
  }

  /// Closes every client and stops accepting; the listening socket closes when the server
  /// is released, and the caller removes the socket file.
  func shutDown() {
    for client in Array(clients.values) { drop(client) }
    acceptor?.stop()
    resume = nil
    idleSweep = nil
    readingWaitTimer = nil
  }

  // MARK: What the acceptor, the connections and the sessions ask

  /// Every client, for a look for those that hung up.
  var connections: [ClientConnection] { Array(clients.values) }

  /// The number of clients.
  var clientCount: Int { clients.count }

  /// Takes an admitted client: watches it and greets it, or has it wait for a current state.
  /// Nil when its socket cannot be watched.
  func adopt(_ socket: consuming FileDescriptor, peer: PeerCredentials?) -> ClientConnection? {
    let client = ClientConnection(socket: socket, peer: peer, server: self, loop: loop)
    do {
      try client.startWatching()
    } catch {
      Log.warning("cannot watch a new client: \(error)")
      return nil
    }
    clients[client.descriptor] = client
    startSweeping()
    needsChanged(from: .nothing, to: client.session.needs)
    if holdsStaleState {
      client.awaitFresh(.greeting)
      host.needsChanged()
    } else {
      client.send(client.session.renderedState(), isReply: false)
    }
    return client
  }

  /// A client's needs of the sensor changed; the daemon hears of a first or a last one.
  func needsChanged(from old: ClientNeeds, to new: ClientNeeds) {
    if counts.update(from: old, to: new) { host.needsChanged() }
  }

  /// Serves `client` again after this round's other descriptors.
  func serveLater(_ client: ClientConnection) {
    backlog.insert(client.descriptor)
    // A timer due now fires after this round's other descriptors: the others go first.
    resume?.schedule(after: .zero)
  }

  /// Serves at once the clients that hung up and were left for the next round: they may hold
  /// slots a newcomer would be refused for.
  func serveDepartedInBacklog() {
    for descriptor in Array(backlog) {
      guard let client = clients[descriptor], client.state.peerGone else { continue }
      backlog.remove(descriptor)
      client.serve()
    }
  }

  /// Reads what `socket` has into the shared buffer: nil when nothing waits, no bytes at the
  /// end of the input, else a copy of what was read.
  func receive(from socket: borrowing FileDescriptor) throws(SystemError) -> [UInt8]? {
    // Through a Result: the buffer's closure cannot throw a typed error.
    let received = readBuffer.withUnsafeMutableBytes { buffer in
      Result { () throws(SystemError) -> Int? in try socket.receive(into: buffer) }
    }
    guard let count = try received.get() else { return nil }
    return Array(readBuffer[0..<count])
  }

  /// Forgets `client`: its slot, what it needed of the sensor, its watch.
  func drop(_ client: ClientConnection) {
    guard clients.removeValue(forKey: client.descriptor) != nil else { return }
    backlog.remove(client.descriptor)
    droppedSinceTrim += 1
    // The next sweep gives the client's memory back.
    startSweeping()
    acceptor?.release(client)
    views.leave(client.session.view)
    let needed = client.session.end()
    needsChanged(from: needed, to: .nothing)
    client.end()
  }

  // MARK: Pacing and sweeping

  private func serveBacklog() {
    let waiting = backlog
    backlog.removeAll()
    for descriptor in waiting {
      guard let client = clients[descriptor] else { continue }
      client.serve()
    }
  }

  /// Arms the idle sweep if it is not: a client has connected, or one was dropped.
  private func startSweeping() {
    guard !sweeping else { return }
    sweeping = true
    idleSweep?.schedule(after: limits.idleTimeout / 3, repeating: limits.idleTimeout / 3)
  }

  /// Drops clients that never sent a command and never read even their greeting: a client
  /// that listens for changes reads the greeting at once, so these hold a slot for nothing.
  private func dropIdleClients() {
    // Memory freed by clients that left goes back to the system, not only to the allocator.
    if droppedSinceTrim > 0 {
      MemoryRelease.trimHeap()
      droppedSinceTrim = 0
    }
    let now = loop.now
    for client in Array(clients.values) where mayIdle(client) {
      guard now - client.connectedAt >= limits.idleTimeout,
        let unread = client.socket.unreadByPeer(), unread > 0
      else { continue }
      refusalWarning.warn(
        "dropped an idle client (pid \(client.peer?.pid ?? 0)): no command and nothing read in "
          + "\(limits.idleTimeout.inSeconds) s (--idle-timeout)")
      drop(client)
    }
    // Nothing left that could become idle and nothing to give back: sleep until a client comes.
    if droppedSinceTrim == 0, !clients.values.contains(where: mayIdle) {
      idleSweep?.cancel()
      sweeping = false
    }
  }

  /// Whether the idle sweep looks at `client`: one that never sent a command and is not closing.
  private func mayIdle(_ client: ClientConnection) -> Bool {
    !client.session.hasSentCommand && client.state.phase != .closing
  }
}
