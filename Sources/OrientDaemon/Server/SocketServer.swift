import OrientCore
import OrientSystem

/// Serves the orientation protocol on a listening Unix stream socket.
///
/// Every client gets the state on connect and each change after it. Control commands
/// go to `control`, whose changes are published to every client at once; the commander's
/// `ok` waits until `commit` says the change is durable.
///
/// No client can take more than its share: each gets at most `commandsPerRound` commands
/// served per loop round, its queued output is bounded (`outputLimit`), one user holds at
/// most `maxClientsPerUser` connections, and a control command's sender is not served again
/// until its change is saved.
public final class SocketServer {
  /// Runs a control command and returns the changes to publish and whether the saved state
  /// changed (an override can change it and nothing clients see), or the error to reply with.
  public typealias ControlHandler = (ClientCommand) -> Result<
    (changes: [StateChange], saves: Bool), ProtocolError
  >
  /// Asks for the applied changes to be saved; returns the commit to wait for before the
  /// `ok`, or nil when nothing needs to wait (the daemon keeps no state file).
  public typealias CommitHandler = () -> UInt64?

  /// The limits that keep one client, or one user, from starving the rest.
  public struct Limits: Sendable {
    /// The most clients served at once.
    public var maxClients: Int
    /// The most clients one user other than root and the daemon's own may hold.
    public var maxClientsPerUser: Int
    /// A client that has sent no command and read nothing it was sent in this long is dropped.
    public var idleTimeout = Duration.seconds(30)
    /// Slots only root and the daemon's own user may take, so that other users together
    /// cannot lock out the desktop's hook or an administrator.
    public var reservedForOwners: Int { max(1, maxClients / 16) }

    public init(maxClients: Int, maxClientsPerUser: Int) {
      self.maxClients = maxClients
      self.maxClientsPerUser = maxClientsPerUser
    }
  }

  private let loop: EventLoop
  private let listener: FileDescriptor
  private var listenWatch: Watch?
  private let limits: Limits
  private let permission: ControlPermission
  private let ownUID = ProcessCredentials.effectiveUserID
  private let snapshot: () -> [StateChange]
  private let control: ControlHandler
  private let commit: CommitHandler
  private let info: (_ full: Bool) -> [InfoItem]
  private let samplesWanted: (Bool) -> Void
  private var sampleSubscribers = 0
  /// Tells the daemon what clients need of the sensor changed: a first or last device
  /// subscriber, or a client that starts waiting for a fresh state.
  private let needsChanged: () -> Void
  private var deviceSubscribers = 0
  private var clients: [Int32: ClientConnection] = [:]
  private var clientsPerUID: [UInt32: Int] = [:]
  private var readBuffer = [UInt8](repeating: 0, count: 4096)
  private var overflowWarning = RateLimitedWarning()
  private var stalledReplyWarning = RateLimitedWarning()
  private var refusalWarning = RateLimitedWarning()
  private var acceptWarning = RateLimitedWarning()
  /// Clients with input left to serve in a later round.
  private var backlog: Set<Int32> = []
  /// Clients dropped since the heap was last given back (the idle sweep does it).
  private var droppedSinceTrim = 0
  private var resume: LoopTimer?
  /// Re-opens accepting after the process ran out of descriptors.
  private var acceptPause: LoopTimer?
  private var idleSweep: LoopTimer?
  /// Whether the idle sweep is armed: only while there is something for it to do, so that a
  /// daemon without clients never wakes for it.
  private var sweeping = false
  private let refusals: RefusedConnections

  /// A client whose queued output costs more than this many bytes is collapsed or dropped.
  public static let outputLimit = 64 * 1024
  /// Commands served from one client per loop round; the rest wait for the next round.
  public static let commandsPerRound = 16

  /// Starts accepting on `listener`, a listening non-blocking socket.
  public init(
    loop: EventLoop, listener: consuming FileDescriptor, limits: Limits, permission: ControlPermission,
    snapshot: @escaping () -> [StateChange], control: @escaping ControlHandler,
    commit: @escaping CommitHandler, info: @escaping (_ full: Bool) -> [InfoItem],
    samplesWanted: @escaping (Bool) -> Void, needsChanged: @escaping () -> Void = {}
  ) throws(SystemError) {
    self.loop = loop
    self.limits = limits
    self.permission = permission
    self.snapshot = snapshot
    self.control = control
    self.commit = commit
    self.info = info
    self.samplesWanted = samplesWanted
    self.needsChanged = needsChanged
    refusals = RefusedConnections(loop: loop)
    let descriptor = listener.rawValue
    self.listener = listener
    listenWatch = try loop.watch(descriptor) { [unowned self] _ in self.acceptClients() }
    resume = LoopTimer(loop: loop) { [unowned self] _ in self.serveBacklog() }
    acceptPause = LoopTimer(loop: loop) { [unowned self] _ in self.resumeAccepting() }
    idleSweep = LoopTimer(loop: loop) { [unowned self] _ in self.dropIdleClients() }
  }

  /// Arms the idle sweep if it is not: a client has connected.
  private func startSweeping() {
    guard !sweeping else { return }
    sweeping = true
    idleSweep?.schedule(after: limits.idleTimeout / 3, repeating: limits.idleTimeout / 3)
  }

  /// Publishes changes to every client that subscribed to them, each in its own format. A
  /// client still waiting for its greeting gets none: the greeting it will get includes them.
  public func publish(_ changes: [StateChange]) {
    guard !changes.isEmpty, !clients.isEmpty else { return }
    let text = changes.map { Array(ProtocolRendering.line(for: $0, format: .text).utf8) }
    let json = changes.map { Array(ProtocolRendering.line(for: $0, format: .json).utf8) }
    for client in Array(clients.values) where !client.closing && client.awaitingFresh != .greeting {
      let lines = client.format == .json ? json : text
      var bytes: [UInt8] = []
      for (index, change) in changes.enumerated() where client.subscription.includes(change) {
        bytes += lines[index]
      }
      if !bytes.isEmpty { deliver(bytes, to: client, isReply: false) }
    }
  }

  /// Whether greetings and `get` replies wait for a fresh state (the daemon sets it while
  /// the sensor is idle, so that nothing stale is sent as current).
  public var holdsStaleState = false

  /// Whether any client subscribes to device orientation changes.
  public var wantsDevice: Bool { deviceSubscribers > 0 }

  /// Whether any client streams samples.
  public var wantsSamples: Bool { sampleSubscribers > 0 }

  /// Whether any client waits for a fresh state.
  public var awaitsFreshState: Bool { clients.values.contains { $0.awaitingFresh != nil } }

  /// The state is current again: clients waiting for it get their greeting or their `get`
  /// reply, and are served again.
  public func stateIsFresh() {
    for client in Array(clients.values) {
      guard let wait = client.awaitingFresh else { continue }
      client.awaitingFresh = nil
      deliver(render(snapshot(), format: client.format), to: client, isReply: wait == .getReply)
      if wait == .getReply { reply(.ok, to: client) }
      guard clients[client.descriptor] != nil else { continue }
      serve(client)
    }
  }

  /// Sends a sample to the clients that asked for samples, and only to them.
  public func publish(_ sample: Sample) {
    guard sampleSubscribers > 0 else { return }
    for client in Array(clients.values) where !client.closing {
      guard let stream = client.sampleStream else { continue }
      deliver(
        Array(ProtocolRendering.line(for: sample, stream: stream, format: client.format).utf8), to: client,
        isReply: false)
    }
  }

  /// Every commit up to `generation` is durable, or failed with `failure`: the clients
  /// waiting for them get their `ok` (with the failure as a warning) and are served again.
  public func committed(through generation: UInt64, failure: String? = nil) {
    for client in Array(clients.values) {
      guard let awaited = client.awaitingCommit, awaited <= generation else { continue }
      client.awaitingCommit = nil
      if let failure {
        reply(.okWithWarning(ProtocolError(.notSaved, failure)), to: client)
      } else {
        reply(.ok, to: client)
      }
      guard clients[client.descriptor] != nil else { continue }
      serve(client)
    }
  }

  /// Closes every client and stops accepting; the listening socket closes when the server
  /// is released, and the caller removes the socket file.
  public func shutDown() {
    for client in Array(clients.values) { drop(client) }
    if let listenWatch { loop.unwatch(listenWatch) }
    listenWatch = nil
    resume = nil
    acceptPause = nil
    idleSweep = nil
    refusals.closeAll()
  }

  // MARK: Accepting

  /// Connections accepted per loop round at most; the listener stays readable for the rest,
  /// so a flood of connections cannot keep the loop from its clients.
  static let acceptsPerRound = 64

  private func acceptClients() {
    // Clients that left may still count: their hang-ups can wait in this very round of the
    // loop, behind the listener, and a connection can close before it is accepted. Before
    // anyone is refused, all clients are looked at once a round; after that only those
    // accepted since the last look, so however a user paces connections and hang-ups, a
    // round costs one look at every client and one more at each newcomer.
    var lookedAtAll = false
    var acceptedSinceLook: [ClientConnection] = []
    for _ in 0..<Self.acceptsPerRound {
      let socket: FileDescriptor
      do {
        guard let accepted = try listener.accept() else { return }
        socket = accepted
      } catch {
        if error.code == .tooManyOpenFiles || error.code == .tooManyOpenFilesInSystem {
          return pauseAccepting(error)
        }
        return acceptWarning.warn("accept on the socket failed: \(error.code)")
      }
      let client = ClientConnection(socket: socket, now: loop.now)
      if refusal(for: client) != nil, !lookedAtAll || !acceptedSinceLook.isEmpty {
        reapDepartedClients(among: lookedAtAll ? acceptedSinceLook : nil)
        lookedAtAll = true
        acceptedSinceLook = []
      }
      if let refusal = refusal(for: client) {
        refusalWarning.warn(
          "refused a client (uid \(client.peer.map { String($0.uid) } ?? "unknown")): \(refusal)")
        let line = ProtocolRendering.line(for: .error(ProtocolError(.tooManyClients, refusal)), format: .text)
        refusals.refuse(client, saying: line)
        continue
      }
      do {
        client.watch = try loop.watch(client.descriptor, for: .readable) {
          [unowned self, unowned client] events in
          self.service(client, events: events)
        }
      } catch {
        Log.warning("cannot watch a new client: \(error)")
        continue
      }
      clients[client.descriptor] = client
      acceptedSinceLook.append(client)
      startSweeping()
      if let uid = client.peer?.uid { clientsPerUID[uid, default: 0] += 1 }
      setSubscription(.all, for: client)
      if holdsStaleState {
        client.awaitingFresh = .greeting
        updateInterest(of: client)
        needsChanged()
      } else {
        deliver(render(snapshot(), format: .text), to: client, isReply: false)
      }
    }
  }

  /// Serves the clients that closed their end but still hold a slot: those whose hang-up the
  /// loop has not reported yet, found with one poll over `candidates`, and when that is every
  /// client (nil), also those known to be gone but left for the next round. Called only when
  /// a newcomer would be refused.
  private func reapDepartedClients(among candidates: [ClientConnection]?) {
    if candidates == nil {
      for descriptor in Array(backlog) {
        guard let client = clients[descriptor], client.peerGone else { continue }
        backlog.remove(descriptor)
        serve(client)
      }
    }
    let connected = (candidates ?? Array(clients.values)).filter {
      clients[$0.descriptor] === $0 && !$0.peerGone
    }
    guard let ready = try? Readiness.wait(connected.map { ($0.descriptor, []) }, timeout: .zero)
    else { return }
    for (client, events) in zip(connected, ready) where events.contains(.hangUp) || events.contains(.error) {
      guard clients[client.descriptor] === client, !client.peerGone else { continue }
      service(client, events: events)
    }
  }

  /// Why `client` may not be served, if it may not.
  private func refusal(for client: ClientConnection) -> String? {
    if clients.count >= limits.maxClients {
      return "at most \(limits.maxClients) clients are served at once (--max-clients)"
    }
    // Root and orientd's own user (the desktop's hook, the administrator) are limited only by
    // the total, so other users' connections cannot lock them out.
    if let uid = client.peer?.uid, uid == 0 || uid == ownUID { return nil }
    let owners = clientsPerUID[0, default: 0] + (ownUID == 0 ? 0 : clientsPerUID[ownUID, default: 0])
    let forOthers = limits.maxClients - limits.reservedForOwners
    if clients.count - owners >= forOthers {
      return "at most \(forOthers) clients of other users than root and orientd's are served at once"
    }
    guard let uid = client.peer?.uid else { return nil }
    if clientsPerUID[uid, default: 0] >= limits.maxClientsPerUser {
      return "at most \(limits.maxClientsPerUser) clients per user (--max-clients-per-user)"
    }
    return nil
  }

  /// Out of descriptors: stop watching the listener for a second instead of waking at once
  /// again for a connection that cannot be accepted.
  private func pauseAccepting(_ error: SystemError) {
    acceptWarning.warn(
      "cannot accept clients: \(error.code) (\(clients.count) connected); not accepting for 1 s")
    guard let listenWatch else { return }
    loop.change(listenWatch, to: [])
    acceptPause?.schedule(after: .seconds(1))
  }

  private func resumeAccepting() {
    guard let listenWatch else { return }
    loop.change(listenWatch, to: .readable)
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
    for client in Array(clients.values) where !client.hasSentCommand && !client.closing {
      guard now - client.connectedAt >= limits.idleTimeout,
        let unread = client.socket.unreadByPeer(), unread > 0
      else { continue }
      refusalWarning.warn(
        "dropped an idle client (pid \(client.peer?.pid ?? 0)): no command and nothing read in "
          + "\(limits.idleTimeout.inSeconds) s (--idle-timeout)")
      drop(client)
    }
    // Nothing left that could become idle and nothing to give back: sleep until a client comes.
    if droppedSinceTrim == 0, !clients.values.contains(where: { !$0.hasSentCommand && !$0.closing }) {
      idleSweep?.cancel()
      sweeping = false
    }
  }

  // MARK: Serving

  private func service(_ client: ClientConnection, events: IOEvents) {
    if events.contains(.hangUp) || events.contains(.error) {
      // The peer closed both ways (an error too: it closed without reading what it was sent).
      markGone(client)
      return serve(client)
    }
    if events.contains(.writable) {
      guard client.flush() else { return markGone(client, serveLater: true) }
    }
    if events.contains(.readable), client.watchingReadable { readInput(of: client) }
    guard clients[client.descriptor] != nil else { return }
    serve(client)
  }

  /// Reads one buffer's worth of input and keeps its lines to be served.
  private func readInput(of client: ClientConnection) {
    let received: Int?
    do {
      received = try readBuffer.withUnsafeMutableBytes { try client.socket.receive(into: $0) }
    } catch {
      if client.peerGone { client.inputClosed = true } else { drop(client) }
      return
    }
    guard let count = received else { return }
    if count == 0 {
      // The client shut down its sending side (`echo get | socat ...`): it has had its
      // answers and may still listen for events, so keep it until it closes. A half line
      // is discarded.
      client.inputClosed = true
      return
    }
    readBuffer.withUnsafeBytes { client.receive(UnsafeRawBufferPointer(rebasing: $0[0..<count])) }
  }

  /// Serves up to `commandsPerRound` of the client's waiting lines, reading more when a
  /// peer that hung up still has input, and leaves the rest for the next round.
  ///
  /// A client waits for its last change to be saved before it is served again, and one whose
  /// output piles up waits until the socket takes it. A peer that went away is held to the
  /// same pacing, and gets one round's worth of commands at most: enough for what a client
  /// sends just before it closes, too little to turn a closed connection into a flood.
  private func serve(_ client: ClientConnection) {
    var served = 0
    while served < Self.commandsPerRound, !client.closing, !client.isWaiting,
      client.retainedBytes <= Self.outputLimit / 2
    {
      if client.peerGone && client.servedAfterGone >= Self.commandsPerRound { break }
      guard let piece = client.nextLine() else {
        guard client.peerGone, !client.inputClosed else { break }
        readInput(of: client)
        guard clients[client.descriptor] != nil else { return }
        continue
      }
      served += 1
      if client.peerGone { client.servedAfterGone += 1 }
      switch piece {
      case .line(let bytes):
        handle(bytes, from: client)
      case .tooLong:
        // The lines before it were answered; this one ends the client.
        reply(
          .error(ProtocolError(.lineTooLong, "lines are at most \(client.splitter.limit) bytes")), to: client)
        client.closing = true
      }
      guard clients[client.descriptor] != nil else { return }
    }
    let moreInput = client.hasUnservedInput || (client.peerGone && !client.inputClosed)
    if client.peerGone {
      let done = !moreInput || client.closing || client.servedAfterGone >= Self.commandsPerRound
      // Its last change, if any, is saved all the same; nobody waits for the ok.
      if done { return drop(client) }
    }
    if moreInput && !client.closing && !client.isWaiting
      && client.retainedBytes <= Self.outputLimit / 2
    {
      backlog.insert(client.descriptor)
      // A timer due now fires after this round's other descriptors: the others go first.
      resume?.schedule(after: .zero)
    }
    if client.closing && !client.hasPendingOutput { return drop(client) }
    updateInterest(of: client)
  }

  /// The peer went away. What it sent before it closed is still served (a `lock` sent just
  /// before the close counts); nothing more is sent to it. With `serveLater`, serving waits
  /// for the next round, so a change it makes cannot overtake the one being published now.
  private func markGone(_ client: ClientConnection, serveLater: Bool = false) {
    client.peerGone = true
    client.discardOutput()
    if let watch = client.watch { loop.unwatch(watch) }
    client.watch = nil
    guard serveLater else { return }
    backlog.insert(client.descriptor)
    resume?.schedule(after: .zero)
  }

  private func serveBacklog() {
    let waiting = backlog
    backlog.removeAll()
    for descriptor in waiting {
      guard let client = clients[descriptor] else { continue }
      serve(client)
    }
  }

  private func handle(_ bytes: [UInt8], from client: ClientConnection) {
    guard !bytes.isEmpty else { return }
    client.hasSentCommand = true
    guard let line = String(validating: bytes, as: UTF8.self), !line.utf8.contains(0) else {
      return reply(
        .error(ProtocolError(.badEncoding, "lines must be UTF-8 text without NUL bytes")), to: client)
    }
    let command: ClientCommand
    do {
      command = try ClientCommand.parse(Substring(line))
    } catch {
      return reply(.error(error), to: client)
    }
    switch command {
    case .get:
      if holdsStaleState {
        client.awaitingFresh = .getReply
        return needsChanged()
      }
      deliver(render(snapshot(), format: client.format), to: client, isReply: true)
      reply(.ok, to: client)
    case .subscribe(let subscription):
      setSubscription(subscription, for: client)
      reply(.ok, to: client)
    case .format(let format):
      client.format = format
      reply(.ok, to: client)
    case .ping:
      reply(.pong, to: client)
    case .samples(let stream):
      setSampleStream(stream, for: client)
      reply(.ok, to: client)
    case .info:
      // Hook command lines and file paths are for those who may change the state.
      let lines = info(mayControl(client)).map { ProtocolRendering.line(for: $0, format: client.format) }
      deliver(Array(lines.joined().utf8), to: client, isReply: true)
      reply(.ok, to: client)
    case .help:
      let lines = ClientCommand.helpLines.map { ProtocolRendering.helpLine($0, format: client.format) }
      deliver(Array(lines.joined().utf8), to: client, isReply: true)
      reply(.ok, to: client)
    case .quit:
      client.closing = true
    case .lock, .unlock, .rotate, .allow, .mode:
      guard mayControl(client) else {
        return reply(
          .error(ProtocolError(.permissionDenied, permission.requirement)),
          to: client)
      }
      switch control(command) {
      case .success(let (changes, saves)):
        // Subscribers hear of the change first; the commander's ok waits until it is durable,
        // and the commander is not served again until then.
        publish(changes)
        guard clients[client.descriptor] != nil else { return }
        if saves, let generation = commit() {
          client.awaitingCommit = generation
        } else {
          reply(.ok, to: client)
        }
      case .failure(let error):
        reply(.error(error), to: client)
      }
    }
  }

  private func mayControl(_ client: ClientConnection) -> Bool {
    if client.mayControl == nil { client.mayControl = permission.allows(client.peer, on: client.socket) }
    return client.mayControl == true
  }

  private func reply(_ reply: Reply, to client: ClientConnection) {
    deliver(Array(ProtocolRendering.line(for: reply, format: client.format).utf8), to: client, isReply: true)
  }

  private func render(_ changes: [StateChange], format: MessageFormat) -> [UInt8] {
    Array(changes.map { ProtocolRendering.line(for: $0, format: format) }.joined().utf8)
  }

  private func deliver(_ bytes: [UInt8], to client: ClientConnection, isReply: Bool) {
    guard client.send(bytes, isReply: isReply) else { return markGone(client, serveLater: true) }
    if client.retainedBytes > Self.outputLimit {
      if client.hasPendingReply {
        stalledReplyWarning.warn(
          "dropped a client that stopped reading its replies (pid \(client.peer?.pid ?? 0)): "
            + "over \(Self.outputLimit / 1024) KiB waiting")
        return drop(client)
      }
      overflowWarning.warn(
        "a subscriber is not reading (pid \(client.peer?.pid ?? 0)); its backlog is now the current state")
      client.collapse(to: [render(snapshot(), format: client.format)])
    }
    updateInterest(of: client)
  }

  /// Watches for output room while output waits, and reads a client's input only when all it
  /// sent before is served, it waits for no commit and its output is not piling up: one client
  /// cannot make the daemon buffer without bound.
  private func updateInterest(of client: ClientConnection) {
    guard let watch = client.watch else { return }
    let wantWritable = client.hasPendingOutput
    let wantReadable =
      !client.closing && !client.inputClosed && !client.hasUnservedInput && !client.isWaiting
      && client.retainedBytes <= Self.outputLimit / 2
    guard wantWritable != client.watchingWritable || wantReadable != client.watchingReadable else { return }
    client.watchingWritable = wantWritable
    client.watchingReadable = wantReadable
    var events: IOEvents = []
    if wantReadable { events.insert(.readable) }
    if wantWritable { events.insert(.writable) }
    loop.change(watch, to: events)
  }

  /// Tracks who wants samples, so the sensor thread sends them only while someone does.
  private func setSampleStream(_ stream: SampleStream?, for client: ClientConnection) {
    let before = sampleSubscribers
    if client.sampleStream != nil { sampleSubscribers -= 1 }
    client.sampleStream = stream
    if stream != nil { sampleSubscribers += 1 }
    if (before == 0) != (sampleSubscribers == 0) { samplesWanted(sampleSubscribers > 0) }
  }

  /// Tracks who subscribes to device changes, so the sensor may stop while nobody does.
  private func setSubscription(_ subscription: Subscription, for client: ClientConnection) {
    let before = deviceSubscribers
    if client.subscription.contains(.device) { deviceSubscribers -= 1 }
    client.subscription = subscription
    if subscription.contains(.device) { deviceSubscribers += 1 }
    if (before == 0) != (deviceSubscribers == 0) { needsChanged() }
  }

  private func drop(_ client: ClientConnection) {
    guard clients.removeValue(forKey: client.descriptor) != nil else { return }
    backlog.remove(client.descriptor)
    droppedSinceTrim += 1
    // The next sweep gives the client's memory back.
    startSweeping()
    if let uid = client.peer?.uid {
      clientsPerUID[uid, default: 1] -= 1
      if clientsPerUID[uid] == 0 { clientsPerUID[uid] = nil }
    }
    if client.sampleStream != nil { setSampleStream(nil, for: client) }
    if client.subscription.contains(.device) {
      client.subscription = []
      deviceSubscribers -= 1
      if deviceSubscribers == 0 { needsChanged() }
    }
    if let watch = client.watch { loop.unwatch(watch) }
    client.watch = nil
    // The client's socket closes when the last reference to the client goes.
  }
}
