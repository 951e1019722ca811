import OrientCore
import OrientSystem
import Testing

@testable import OrientDaemon

/// The daemon as the socket's sessions see it, scripted by a test: the state is a real
/// `OrientationTracker`; a control command changes it and publishes its changes to the server
/// before it returns, as the daemon's does; and every call is recorded.
final class ScriptedHost: SessionHost {
  var tracker = OrientationTracker()
  var readings = SensorReadings()
  /// What `info` reports: `full` items only to a peer that may control.
  var infoItems = [InfoItem("version", "test")]
  var fullInfoItems = [InfoItem("hook", "echo secret")]
  /// Whether saves wait for a commit (a state file exists): the commander's `ok` waits.
  var savesToFile = false
  /// The server the host publishes to; it holds the host unowned, the test holds both.
  weak var server: SocketServer?

  private(set) var controls: [ClientCommand] = []
  private(set) var infoRequests: [Bool] = []
  private(set) var commitRequests: [UInt32?] = []
  private(set) var needsChangedCalls = 0
  private var generation: UInt64 = 0

  init() {
    _ = tracker.setSensor(online: true)
    _ = tracker.setDevice(.normal, at: .zero)
  }

  var snapshot: [StateChange] { tracker.snapshot }
  var sensorReadings: SensorReadings { readings }
  var policy: ScreenPolicy { tracker.policy }
  var suggested: ScreenOrientation? { tracker.suggestion.suggested }

  func control(_ command: ClientCommand) -> Result<Bool, ProtocolError> {
    controls.append(command)
    switch tracker.control(command) {
    case .failure(let error): return .failure(error)
    case .success(let outcome):
      server?.sendToSubscribers(outcome.changes, under: tracker.policy)
      return .success(outcome.changesSavedState)
    }
  }

  func commit(for requester: UInt32?) -> UInt64? {
    commitRequests.append(requester)
    guard savesToFile else { return nil }
    generation += 1
    return generation
  }

  func info(full: Bool) -> [InfoItem] {
    infoRequests.append(full)
    return infoItems + (full ? fullInfoItems : [])
  }

  func needsChanged() { needsChangedCalls += 1 }

  /// The sensor saw the device turn at `time`: its changes are published, as the daemon
  /// publishes them.
  func deviceTurns(to device: DeviceOrientation?, at time: SampleTime = .zero) {
    server?.sendToSubscribers(tracker.setDevice(device, at: time), under: tracker.policy)
  }

  /// The rotation suggestion's clock reaches `time`, as the daemon's timer makes it: what that
  /// changes is published.
  func suggestionTime(reaches time: SampleTime) {
    server?.sendToSubscribers(tracker.advanceSuggestion(to: time), under: tracker.policy)
  }
}

/// A gate that refuses every peer, for the test process whose peers are all root.
struct RefusingGate: ControlGate {
  static let requirement = "test gate: nobody may control"
  func peer(_ credentials: PeerCredentials?, on socket: borrowing FileDescriptor) -> ControlRule.Peer? {
    credentials.map { ControlRule.Peer(uid: $0.uid, gid: $0.gid, groups: []) }
  }
  func refusal(for peer: ControlRule.Peer?) -> String? { Self.requirement }
}

/// A gate that lets every peer control, as a daemon with no rule would.
struct AllowingGate: ControlGate {
  func peer(_ credentials: PeerCredentials?, on socket: borrowing FileDescriptor) -> ControlRule.Peer? {
    credentials.map { ControlRule.Peer(uid: $0.uid, gid: $0.gid, groups: []) }
  }
  func refusal(for peer: ControlRule.Peer?) -> String? { nil }
}

/// A `SocketServer` served on an event loop in the test process, on a socket in a scratch
/// directory, with a scripted host and clock. The test drives the loop (`turn(until:)`) on its
/// own thread, so the server, its clients and the peers are touched by one thread only.
final class ServedSocket {
  let scratch: ScratchDirectory
  let clock = ScriptedClock()
  let loop: EventLoop
  let host = ScriptedHost()
  let server: SocketServer
  let path: String

  init(
    limits: SocketServer.Limits = SocketServer.Limits(maxClients: 16, maxClientsPerUser: 8),
    control: any ControlGate = AllowingGate()
  ) throws {
    scratch = try ScratchDirectory()
    path = scratch.path + "/orientd.sock"
    loop = try EventLoop(clock: { [clock] in clock.now })
    server = try SocketServer(
      loop: loop, listener: try listeningSocket(at: path), limits: limits, control: control, host: host)
    host.server = server
  }

  deinit { server.shutDown() }

  /// A peer connected to the server, accepted and greeted (or made to wait) before this returns;
  /// with `listening`, the loop reads for it from now on.
  func connect(listening: Bool = true) throws -> TestPeer {
    let peer = try TestPeer(connectingTo: path)
    if listening { try peer.listen(on: loop) }
    let before = server.clientCount
    #expect(turn(until: { self.server.clientCount > before }), "the server did not accept the peer")
    return peer
  }

  /// Runs the loop a round at a time until `condition` holds (`EventLoop.turn(until:within:)`).
  @discardableResult
  func turn(until condition: () -> Bool, within limit: Duration = .seconds(10)) -> Bool {
    loop.turn(until: condition, within: limit)
  }

  /// Runs the loop until `peer` has received `count` whole lines, and returns them.
  func lines(_ count: Int, of peer: TestPeer) -> [String] {
    #expect(turn(until: { peer.lineCount >= count }), "\(count) lines expected, got \(peer.lines)")
    return peer.lines
  }
}

/// The greeting of a server whose host has a sensor online, a device standing normal and the
/// default policy.
let normalGreeting = [
  "sensor online", "device normal", "orientation normal", "lock off",
  "allowed normal,left-up,bottom-up,right-up", "mode unknown",
]
