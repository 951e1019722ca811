import Glibc
import OrientBus
import OrientSystem
import Testing

/// What a service sent on a `ScriptedBus`, in the order a bus daemon would have seen it.
enum BusTraffic: Equatable, CustomStringConvertible {
  case requestName(String)
  case propertiesChanged(path: String, interface: String, names: [String])
  /// A reply to `member` called by `client`.
  case reply(client: String, member: String, BusReply)
  case watchPeer(String)
  case forgetPeer(String)
  /// `GetConnectionUnixUser` about a client.
  case askUser(String)
  /// `GetConnectionUnixProcessID` about a name.
  case askProcess(String)
  case close

  var description: String {
    switch self {
    case .requestName(let name): "RequestName \(name)"
    case .propertiesChanged(let path, _, let names):
      "PropertiesChanged \(path) \(names.joined(separator: ","))"
    case .reply(let client, let member, .empty): "reply \(member) to \(client)"
    case .reply(let client, let member, .error(let name, _)): "error \(name) for \(member) to \(client)"
    case .watchPeer(let name): "watch \(name)"
    case .forgetPeer(let name): "forget \(name)"
    case .askUser(let name): "ask user of \(name)"
    case .askProcess(let name): "ask process of \(name)"
    case .close: "close"
    }
  }
}

/// A bus scripted by a test, in the manner of scripted system calls: the `ServiceBusOpener`
/// of the service under test. Every connection the service opens is a `ScriptedBusConnection`
/// that records what the service sends; the test plays the bus's side (the name's fate, the
/// clients' calls and departures, the answers about users) through it, each delivered on the
/// service's loop as `BusConnection` delivers its events.
final class ScriptedBus {
  let loop: EventLoop
  /// Whether a connection can be opened now; else opening fails as with no bus daemon.
  var reachable = true
  /// The connections opened, the latest last.
  private(set) var connections: [ScriptedBusConnection] = []

  init(loop: EventLoop) { self.loop = loop }

  /// The connection opened last.
  var current: ScriptedBusConnection? { connections.last }

  /// The service's `ServiceBusOpener`.
  func open(
    _ address: BusAddress, loop: EventLoop, screening: BusCallScreening?,
    handler: @escaping (BusEvent) -> Void
  ) throws(SystemError) -> any ServiceBus {
    guard reachable else { throw SystemError("connect to \(address)", code: Errno(rawValue: ECONNREFUSED)) }
    let connection = ScriptedBusConnection(loop: loop, handler: handler)
    connections.append(connection)
    return connection
  }
}

/// One connection of a `ScriptedBus`.
final class ScriptedBusConnection: ServiceBus {
  /// Everything the service sent, in order.
  private(set) var traffic: [BusTraffic] = []
  /// The objects exported, by path.
  private(set) var objects: [String: BusObject] = [:]
  /// The clients watched now.
  private(set) var watched: Set<String> = []
  /// Whether watching a client fails (a bus out of match rules).
  var refusesWatches = false
  private(set) var isClosed = false

  private let handler: (BusEvent) -> Void
  private let loop: EventLoop
  /// Delivers what waits, at once on the loop's next round.
  private lazy var timer = LoopTimer(loop: loop) { [unowned self] _ in self.deliver() }
  /// What waits to be delivered on the loop.
  private var pending: [() -> Void] = []
  /// The questions about users and processes not answered yet, by name.
  private var userQuestions: [String: [(UInt32?) -> Void]] = [:]
  private var processQuestions: [String: [(UInt32?) -> Void]] = [:]
  /// Whether a method handler runs: its signals follow its reply, as with `BusConnection`.
  private var handling = false
  private var signalsDuringCall: [BusTraffic] = []

  init(loop: EventLoop, handler: @escaping (BusEvent) -> Void) {
    self.handler = handler
    self.loop = loop
  }

  /// Whether something waits to be delivered on the loop.
  var isIdle: Bool { pending.isEmpty }

  /// The signals sent, each as its names.
  var signals: [[String]] {
    traffic.compactMap {
      if case .propertiesChanged(_, _, let names) = $0 { return names }
      return nil
    }
  }

  /// The traffic from `index` on.
  func traffic(since index: Int) -> [BusTraffic] { Array(traffic.dropFirst(index)) }

  // MARK: The bus's side, played by the test

  /// Delivers `event` on the loop.
  func send(_ event: BusEvent) { later { [unowned self] in handler(event) } }

  /// `client` calls `member` on the object at `path`, on the loop; its reply is recorded.
  func call(_ member: String, from client: String, at path: String = "/net/hadess/SensorProxy") {
    later { [unowned self] in
      guard let object = objects[path], object.methods.contains(member) else {
        record(.reply(client: client, member: member, .error(name: "UnknownMethod", message: member)))
        return
      }
      let call = BusMethodCall(member: member, sender: client) { [unowned self] in
        BusPendingReply { [weak self] reply in
          self?.record(.reply(client: client, member: member, reply))
        }
      }
      handling = true
      let reply = object.call(call)
      handling = false
      if let reply { record(.reply(client: client, member: member, reply)) }
      traffic += signalsDuringCall
      signalsDuringCall = []
    }
  }

  /// The bus answers who runs `client` (nil: it does not know), on the loop.
  func answerUser(of client: String, with user: UInt32?) {
    let completions = userQuestions.removeValue(forKey: client) ?? []
    #expect(!completions.isEmpty, "nobody asked for the user of \(client)")
    for completion in completions { later { completion(user) } }
  }

  /// The bus answers which process owns `name`, on the loop.
  func answerProcess(of name: String, with pid: UInt32?) {
    let completions = processQuestions.removeValue(forKey: name) ?? []
    #expect(!completions.isEmpty, "nobody asked for the process of \(name)")
    for completion in completions { later { completion(pid) } }
  }

  /// The value a client reads of `property` on the object at `path`: through the getter the
  /// service exported, as sd-bus reads it.
  func value(of property: String, at path: String = "/net/hadess/SensorProxy") -> BusValue? {
    objects[path]?.properties.first { $0.name == property }?.value()
  }

  // MARK: ServiceBus

  func requestName(_ name: String) throws(SystemError) { try record(.requestName(name), "request \(name)") }

  func export(_ object: BusObject) throws(SystemError) {
    guard !isClosed else { throw SystemError("export \(object.path)", code: .notConnected) }
    objects[object.path] = object
  }

  func emitPropertiesChanged(path: String, interface: String, names: [String]) {
    guard !names.isEmpty, !isClosed else { return }
    let signal = BusTraffic.propertiesChanged(path: path, interface: interface, names: names)
    if handling { signalsDuringCall.append(signal) } else { traffic.append(signal) }
  }

  func watchPeer(_ name: String) throws(SystemError) {
    if refusesWatches { throw SystemError("watch \(name)", code: Errno(rawValue: ENOSPC)) }
    try record(.watchPeer(name), "watch \(name)")
    watched.insert(name)
  }

  /// Recorded only for a client watched: as with `BusConnection`, forgetting another does nothing.
  func forgetPeer(_ name: String) {
    guard watched.remove(name) != nil else { return }
    record(.forgetPeer(name))
  }

  func unixUser(of name: String, completion: @escaping (UInt32?) -> Void) throws(SystemError) {
    try record(.askUser(name), "ask the user of \(name)")
    userQuestions[name, default: []].append(completion)
  }

  func processID(of name: String, completion: @escaping (UInt32?) -> Void) throws(SystemError) {
    try record(.askProcess(name), "ask the process of \(name)")
    processQuestions[name, default: []].append(completion)
  }

  func close() {
    guard !isClosed else { return }
    record(.close)
    isClosed = true
    pending = []
    userQuestions = [:]
    processQuestions = [:]
    timer.cancel()
  }

  // MARK: Delivery

  private func record(_ traffic: BusTraffic) {
    guard !isClosed else { return }
    self.traffic.append(traffic)
  }

  private func record(_ traffic: BusTraffic, _ operation: String) throws(SystemError) {
    guard !isClosed else { throw SystemError(operation, code: .notConnected) }
    self.traffic.append(traffic)
  }

  /// Runs `work` on the loop, in order, unless the connection is closed first.
  private func later(_ work: @escaping () -> Void) {
    guard !isClosed else { return }
    pending.append(work)
    timer.schedule(after: .zero)
  }

  private func deliver() {
    while !pending.isEmpty { pending.removeFirst()() }
  }
}
