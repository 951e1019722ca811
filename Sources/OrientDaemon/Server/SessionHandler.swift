import OrientCore
import OrientSystem

/// Serves one client's protocol: carries out what its `ProtocolSession` makes of each line,
/// with the daemon (`SessionHost`) and the client's connection, and keeps what the server
/// reads of its settings.
final class SessionHandler {
  private var session = ProtocolSession()
  /// The client as `ControlRule` sees it, read from its socket when first needed (its groups
  /// are those it connected with); nil inside when the kernel did not tell who it is.
  private var controlPeer: ControlRule.Peer??
  private unowned let server: SocketServer
  /// What sessions ask of the daemon (state, control, info), handed over by the server.
  private unowned let host: SessionHost

  /// A handler with a new session (text, every change, no samples) for `peer`.
  init(server: SocketServer, host: SessionHost, peer: PeerCredentials?) {
    self.host = host
    self.server = server
    if !server.headingPermission.allows(peer) {
      session.headingRefusal = server.headingPermission.requirement
    }
  }

  /// The format of everything the client is sent.
  var format: MessageFormat { session.format }

  /// The changes the client receives.
  var subscription: Subscription { session.subscription }

  /// The samples the client asked for, if any.
  var sampleStream: SampleStream? { session.sampleStream }

  /// How the client's `orientation` lines are worked out.
  var view: ClientScreenView { session.view }

  /// Whether the client has sent a line with anything in it.
  var hasSentCommand: Bool { session.hasSentCommand }

  /// What the client's settings ask of the sensor.
  var needs: ClientNeeds { session.needs }

  /// The whole state in the client's format, with its own orientation; with `keys`, the lines
  /// of those keys.
  func renderedState(keys: Subscription? = nil) -> [UInt8] {
    Array(
      server.state(for: view, keys: keys).map { ProtocolRendering.line(for: $0, format: format) }.joined()
        .utf8)
  }

  /// Serves one line the client sent, without its newline.
  func handle(_ line: [UInt8], from connection: ClientConnection) {
    let before = session.needs
    let heard = session.subscription
    let step = session.handle(line)
    // The server counts what clients need before the client hears its `ok`.
    if session.needs != before { server.needsChanged(from: before, to: session.needs) }
    switch step {
    case .nothing:
      return
    case .reply(let reply):
      // A client that starts to hear a reading is told its value first, where it is current;
      // otherwise the sensor's first value reaches it as a change.
      let added = session.subscription.readingKinds.filter { !heard.readingKinds.contains($0) }
      if !added.isEmpty {
        let lines = server.currentReadingLines(added, format: format)
        if !lines.isEmpty { connection.send(lines, isReply: false) }
      }
      connection.send(reply)
    case .sendState(let keys):
      // Nothing stale is sent as current: the reply waits for the sensor's next sample, and
      // for a reading's value while its sensor starts.
      if !server.mayAnswer(keys, waitingSince: nil) {
        connection.awaitFresh(.getReply(keys))
        if connection.readingWaitSince != nil { server.awaitsReadings() }
        return host.needsChanged()
      }
      connection.send(renderedState(keys: keys), isReply: true)
      connection.send(.ok)
    case .sendInfo:
      // Hook command lines and file paths are for those who may change the state.
      let items = host.info(full: controlRefusal(connection) == nil)
      let lines = items.map { ProtocolRendering.line(for: $0, format: format) }
      connection.send(Array(lines.joined().utf8), isReply: true)
      connection.send(.ok)
    case .sendHelp:
      let lines = ClientCommand.helpLines.map { ProtocolRendering.helpLine($0, format: format) }
      connection.send(Array(lines.joined().utf8), isReply: true)
      connection.send(.ok)
    case .close:
      connection.close()
    case .control(let command):
      control(command, from: connection)
    case .supports(let set):
      supports(set, from: connection)
    }
  }

  /// Declares the orientations the client supports, if any of them is allowed: a client that
  /// hears orientation changes is told its own orientation before the `ok` when it changes.
  private func supports(_ set: AllowedOrientations, from connection: ClientConnection) {
    do throws(PolicyError) {
      let (view, told) = try server.declare(set, replacing: session.view)
      session.declared(view)
      if let told, session.subscription.includes(told) {
        connection.send(Array(ProtocolRendering.line(for: told, format: format).utf8), isReply: false)
      }
      connection.send(.ok)
    } catch {
      connection.send(.error(ProtocolError(.notAllowed, error.description)))
    }
  }

  /// Runs a control command for a client that may control. Subscribers, the commander
  /// among them, hear of the change first (the daemon publishes it); the commander's `ok`
  /// waits until the change is durable, and the commander is not served again until then.
  private func control(_ command: ClientCommand, from connection: ClientConnection) {
    if let refusal = controlRefusal(connection) {
      return connection.send(.error(ProtocolError(.permissionDenied, refusal)))
    }
    switch host.control(command) {
    case .success(let saves):
      // Publishing can drop the commander (its output past the limit with a reply waiting).
      guard connection.state.isOpen else { return }
      if saves, let generation = host.commit(for: connection.peer?.uid) {
        connection.awaitCommit(generation)
      } else {
        connection.send(.ok)
      }
    case .failure(let error):
      connection.send(.error(error))
    }
  }

  /// Nil when the client may control now, else who may. Asked at every command, not
  /// remembered: who sits at a seat can change while the client stays connected.
  private func controlRefusal(_ connection: ClientConnection) -> String? {
    if controlPeer == nil { controlPeer = .some(server.control.peer(connection.peer, on: connection.socket)) }
    return server.control.refusal(for: controlPeer ?? nil)
  }

  /// The client goes; returns what it needed of the sensor, which it needs no more.
  func end() -> ClientNeeds {
    let before = session.needs
    session.end()
    return before
  }
}
