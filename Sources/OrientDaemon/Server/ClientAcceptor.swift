import OrientCore
import OrientSystem

/// Accepts clients on the listening socket for the server: a bounded number per loop round,
/// none for a while once the process runs out of descriptors, and only those `Admission`
/// lets in. A refused client is told why (`RefusedConnections`).
final class ClientAcceptor {
  /// Connections accepted per loop round at most; the listener stays readable for the rest,
  /// so a flood of connections cannot keep the loop from its clients.
  static let acceptsPerRound = 64
  /// How long accepting pauses when the process is out of descriptors.
  static let pauseWhenOutOfDescriptors = Duration.seconds(1)

  private let loop: EventLoop
  private let listener: FileDescriptor
  private var listenWatch: Watch?
  /// Re-opens accepting after the process ran out of descriptors.
  private var pause: LoopTimer?
  private var admission: Admission
  private let refusals: RefusedConnections
  private var acceptWarning = RateLimitedWarning()
  private unowned let server: SocketServer

  /// Starts watching `listener`, a listening non-blocking socket, for `server`.
  init(loop: EventLoop, listener: consuming FileDescriptor, admission: Admission, server: SocketServer)
    throws(SystemError)
  {
    self.loop = loop
    self.admission = admission
    self.server = server
    refusals = RefusedConnections(loop: loop)
    let descriptor = listener.rawValue
    self.listener = listener
    listenWatch = try loop.watch(descriptor) { [unowned self] _ in self.acceptClients() }
    pause = LoopTimer(loop: loop) { [unowned self] _ in self.resumeAccepting() }
  }

  /// Frees the slot of a client the server dropped.
  func release(_ client: ClientConnection) {
    admission.release(client.peer?.uid)
  }

  /// Stops accepting and closes the refused connections still waiting; the listening socket
  /// closes when the acceptor is released.
  func stop() {
    if let listenWatch { loop.unwatch(listenWatch) }
    listenWatch = nil
    pause = nil
    refusals.closeAll()
  }

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
      let peer = socket.peerCredentials()
      let atSeat = isAtSeat(peer)
      if admission.refusal(for: peer?.uid, isActiveSessionUser: atSeat) != nil,
        !lookedAtAll || !acceptedSinceLook.isEmpty
      {
        reapDepartedClients(among: lookedAtAll ? acceptedSinceLook : nil)
        lookedAtAll = true
        acceptedSinceLook = []
      }
      if let refusal = admission.admit(peer?.uid, isActiveSessionUser: atSeat) {
        server.refusalWarning.warn(
          "refused a client (uid \(peer.map { String($0.uid) } ?? "unknown")): \(refusal.message)")
        let line = ProtocolRendering.line(
          for: .error(ProtocolError(.tooManyClients, refusal.message)), format: .text)
        refusals.refuse(socket, saying: line)
        continue
      }
      guard let client = server.adopt(socket, peer: peer) else {
        admission.release(peer?.uid)
        continue
      }
      acceptedSinceLook.append(client)
    }
  }

  /// Whether `peer` is the user of the active session at a seat, for the reserved slots.
  /// logind is asked only when that could decide: for a user other than root and orientd's
  /// whom the slots left to others would refuse.
  private func isAtSeat(_ peer: PeerCredentials?) -> Bool {
    guard let uid = peer?.uid, case .reservedForOwners? = admission.refusal(for: uid) else { return false }
    return ControlAccess.isAtSeat(uid)
  }

  /// Serves the clients that closed their end but still hold a slot: those whose hang-up the
  /// loop has not reported yet, found with one poll over `candidates`, and when that is every
  /// client (nil), also those known to be gone but left for the next round. Called only when
  /// a newcomer would be refused.
  private func reapDepartedClients(among candidates: [ClientConnection]?) {
    if candidates == nil { server.serveDepartedInBacklog() }
    let connected = (candidates ?? server.connections).filter { $0.state.isOpen && !$0.state.peerGone }
    // A poll that fails only finds no one to reap: the newcomer is refused, as it would be.
    guard let ready = try? Readiness.wait(connected.map { ($0.descriptor, []) }, timeout: .zero)
    else { return }
    for (client, events) in zip(connected, ready) where events.contains(.hangUp) || events.contains(.error) {
      guard client.state.isOpen, !client.state.peerGone else { continue }
      client.service(events)
    }
  }

  /// Out of descriptors: stop watching the listener for a while instead of waking at once
  /// again for a connection that cannot be accepted.
  private func pauseAccepting(_ error: SystemError) {
    acceptWarning.warn(
      "cannot accept clients: \(error.code) (\(server.clientCount) connected); not accepting for 1 s")
    guard let listenWatch else { return }
    // Should the listener stay watched (the kernel out of memory as well), the loop wakes for
    // it again and this warning, rate-limited, says so; accepting resumes all the same.
    try? loop.change(listenWatch, to: [])
    pause?.schedule(after: Self.pauseWhenOutOfDescriptors)
  }

  private func resumeAccepting() {
    guard let listenWatch else { return }
    do {
      try loop.change(listenWatch, to: .readable)
    } catch {
      // Never left unwatched for good: try again after another pause.
      acceptWarning.warn("cannot watch the socket for clients: \(error.code); trying again in 1 s")
      pause?.schedule(after: Self.pauseWhenOutOfDescriptors)
    }
  }
}
