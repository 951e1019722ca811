import OrientCore
import OrientSystem

/// Serves the orientation protocol on a listening Unix stream socket.
///
/// Every client gets the state on connect and each change after it. Control commands
/// go to `control`, whose changes are published to every client before the reply.
public final class SocketServer {
  /// Runs a control command and returns what it changed, or the error to reply with.
  public typealias ControlHandler = (ClientCommand) -> Result<[StateChange], ProtocolError>
  /// Makes applied changes durable; runs after they are published and before the reply.
  public typealias CommitHandler = () -> Void

  private let loop: EventLoop
  private let listener: FileDescriptor
  private let maxClients: Int
  private let permission: ControlPermission
  private let snapshot: () -> [StateChange]
  private let control: ControlHandler
  private let commit: CommitHandler
  private let info: () -> [InfoItem]
  private let samplesWanted: (Bool) -> Void
  private var sampleSubscribers = 0
  private var listenWatch: Watch?
  private var clients: [Int32: ClientConnection] = [:]
  private var readBuffer = [UInt8](repeating: 0, count: 4096)
  private var overflowWarning = RateLimitedWarning()

  /// A client whose unsent output passes this many bytes is collapsed or dropped.
  public static let outputLimit = 64 * 1024

  /// Starts accepting on `listener`, a listening non-blocking socket.
  public init(
    loop: EventLoop, listener: consuming FileDescriptor, maxClients: Int, permission: ControlPermission,
    snapshot: @escaping () -> [StateChange], control: @escaping ControlHandler,
    commit: @escaping CommitHandler, info: @escaping () -> [InfoItem], samplesWanted: @escaping (Bool) -> Void
  ) throws(SystemError) {
    self.loop = loop
    self.maxClients = maxClients
    self.permission = permission
    self.snapshot = snapshot
    self.control = control
    self.commit = commit
    self.info = info
    self.samplesWanted = samplesWanted
    let descriptor = listener.rawValue
    self.listener = listener
    listenWatch = try loop.watch(descriptor) { [unowned self] _ in self.acceptClients() }
  }

  /// Publishes changes to every client, each in its own format.
  public func publish(_ changes: [StateChange]) {
    guard !changes.isEmpty, !clients.isEmpty else { return }
    var text: [UInt8] = []
    var json: [UInt8] = []
    for change in changes {
      text += ProtocolRendering.line(for: change, format: .text).utf8
      json += ProtocolRendering.line(for: change, format: .json).utf8
    }
    for client in Array(clients.values) where !client.closing {
      deliver(client.format == .json ? json : text, to: client, isReply: false)
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

  /// Closes every client and stops accepting; the listening socket closes when the server
  /// is released, and the caller removes the socket file.
  public func shutDown() {
    for client in Array(clients.values) { drop(client) }
    if let listenWatch { loop.unwatch(listenWatch) }
    listenWatch = nil
  }

  private func acceptClients() {
    while true {
      let socket: FileDescriptor
      do {
        guard let accepted = try listener.accept() else { return }
        socket = accepted
      } catch {
        return overflowWarning.warn("accept on the socket failed: \(error.code)")
      }
      guard clients.count < maxClients else {
        let refusal = ProtocolRendering.line(
          for: .error(ProtocolError(.tooManyClients, "at most \(maxClients) clients")), format: .text)
        // Best effort: the refused client may not even read.
        _ = try? socket.send(Array(refusal.utf8)[...])
        overflowWarning.warn("refused a client: \(maxClients) clients are connected (--max-clients)")
        continue
      }
      let client = ClientConnection(socket: socket)
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
      deliver(render(snapshot(), format: .text), to: client, isReply: false)
    }
  }

  private func service(_ client: ClientConnection, events: IOEvents) {
    // Hang-up means the peer closed both ways: nothing sent now can arrive.
    if events.contains(.hangUp) || events.contains(.error) { return drop(client) }
    if events.contains(.writable) {
      guard client.flush() else { return drop(client) }
    }
    if events.contains(.readable), client.watchingReadable { readInput(of: client) }
    guard clients[client.descriptor] != nil else { return }
    if client.closing && !client.hasPendingOutput { return drop(client) }
    updateInterest(of: client)
  }

  private func readInput(of client: ClientConnection) {
    let received: Int?
    do {
      received = try readBuffer.withUnsafeMutableBytes { try client.socket.receive(into: $0) }
    } catch {
      return drop(client)
    }
    guard let count = received else { return }
    if count == 0 {
      // The client shut down its sending side (`echo get | socat ...`): it has had its
      // answers and may still listen for events, so keep it until it closes. A half line
      // is discarded.
      client.inputClosed = true
      return
    }
    let pieces = readBuffer.withUnsafeBytes {
      client.splitter.append(UnsafeRawBufferPointer(rebasing: $0[0..<count]))
    }
    for piece in pieces where !client.closing {
      switch piece {
      case .line(let bytes):
        handle(bytes, from: client)
      case .tooLong:
        reply(
          .error(ProtocolError(.lineTooLong, "lines are at most \(client.splitter.limit) bytes")), to: client)
        client.closing = true
      }
      guard clients[client.descriptor] != nil else { return }
    }
  }

  private func handle(_ bytes: [UInt8], from client: ClientConnection) {
    guard !bytes.isEmpty else { return }
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
      deliver(render(snapshot(), format: client.format), to: client, isReply: true)
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
      let lines = info().map { ProtocolRendering.line(for: $0, format: client.format) }
      deliver(Array(lines.joined().utf8), to: client, isReply: true)
      reply(.ok, to: client)
    case .help:
      let lines = ClientCommand.helpLines.map { ProtocolRendering.helpLine($0, format: client.format) }
      deliver(Array(lines.joined().utf8), to: client, isReply: true)
      reply(.ok, to: client)
    case .quit:
      client.closing = true
    case .lock, .unlock, .rotate, .allow:
      if client.mayControl == nil { client.mayControl = permission.allows(client.peer, on: client.socket) }
      guard client.mayControl == true else {
        return reply(
          .error(ProtocolError(.permissionDenied, "control needs root, orientd's user or its control group")),
          to: client)
      }
      switch control(command) {
      case .success(let changes):
        // Subscribers hear of the change first; the commander's ok waits until it is durable.
        publish(changes)
        if !changes.isEmpty { commit() }
        if clients[client.descriptor] != nil { reply(.ok, to: client) }
      case .failure(let error):
        reply(.error(error), to: client)
      }
    }
  }

  private func reply(_ reply: Reply, to client: ClientConnection) {
    deliver(Array(ProtocolRendering.line(for: reply, format: client.format).utf8), to: client, isReply: true)
  }

  private func render(_ changes: [StateChange], format: MessageFormat) -> [UInt8] {
    Array(changes.map { ProtocolRendering.line(for: $0, format: format) }.joined().utf8)
  }

  private func deliver(_ bytes: [UInt8], to client: ClientConnection, isReply: Bool) {
    guard client.send(bytes, isReply: isReply) else { return drop(client) }
    if client.queuedBytes > Self.outputLimit {
      if client.hasPendingReply {
        overflowWarning.warn(
          "dropped a client that stopped reading its replies (pid \(client.peer?.pid ?? 0))")
        return drop(client)
      }
      overflowWarning.warn(
        "a subscriber is not reading (pid \(client.peer?.pid ?? 0)); its backlog is now the current state")
      client.collapse(to: [render(snapshot(), format: client.format)])
    }
    updateInterest(of: client)
  }

  /// Watches for output room while output waits, and stops reading commands from a client
  /// whose replies pile up, so one client cannot make the daemon buffer without bound.
  private func updateInterest(of client: ClientConnection) {
    guard let watch = client.watch else { return }
    let wantWritable = client.hasPendingOutput
    let wantReadable = !client.closing && !client.inputClosed && client.queuedBytes <= Self.outputLimit / 2
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

  private func drop(_ client: ClientConnection) {
    guard clients.removeValue(forKey: client.descriptor) != nil else { return }
    if client.sampleStream != nil { setSampleStream(nil, for: client) }
    if let watch = client.watch { loop.unwatch(watch) }
    client.watch = nil
    // The client's socket closes when the last reference to the client goes.
  }
}
