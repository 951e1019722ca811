/// Which user runs each client of `net.hadess.SensorProxy`, as far as claims need it: a new
/// client's claim counts against its user's share (`SensorProxyClaims`), and the bus says which
/// user runs a connection only in answer to a question (`GetConnectionUnixUser`), which must
/// not block the loop.
///
/// Each client's user is asked once and then remembered: the bus never gives a unique name
/// to another connection, so the answer stays true while the name lives. A client refused
/// for its user's share and trying again costs nothing more. The questions are asked a few at
/// a time (`questionsAtOnce`) in the order clients came, and no client is turned away because
/// of another user's questions: the bus answers each in well under a millisecond, so a client
/// that waits, waits behind at most the connections that came before it, and the bus itself
/// limits how many connections one user holds. A client's calls wait behind its question and
/// are answered in order.
///
/// Pure: the daemon's service asks the bus what `questionsToAsk` says and reports each answer.
package struct ClaimantUsers: Sendable {
  /// What to do with a call now.
  package enum Route: Equatable, Sendable {
    /// Answer it now: with the caller's user when the call needs one and it is known (nil when
    /// the call needs none).
    case now(user: UInt32?)
    /// Keep it: it waits for the question about its caller (asked now or soon).
    case wait
    /// Refuse it: too many calls or clients wait already.
    case busy
  }

  /// The questions to the bus at once.
  package static let questionsAtOnce = 32
  /// The clients that may wait for their question at once, all users together: twice what
  /// the system bus lets one user connect.
  package static let clientsWaiting = 512
  /// The calls one waiting client may have waiting: as many as the system bus lets a client
  /// wait for replies.
  package static let callsWaitingPerClient = 128
  /// The calls that may wait behind waiting clients' first calls, all clients together: a new
  /// client's first call is never refused for another client's calls.
  package static let laterCallsWaiting = 4096
  /// The users of clients remembered, the oldest forgotten first.
  package static let remembered = 1024

  /// Clients waiting for their question, with how many calls each has waiting.
  private var waiting: [String: Int] = [:]
  /// Calls waiting beyond each waiting client's first.
  private var laterCalls = 0
  /// Waiting clients whose question is not asked yet, in the order they came.
  private var queue: [String] = []
  private var queueHead = 0
  /// Clients whose question is being asked.
  private var asking: Set<String> = []
  /// Users learned, and the order they were learned in (with clients that left since).
  private var users: [String: UInt32] = [:]
  private var learnedOrder: [String] = []
  private var learnedHead = 0

  /// No client known yet.
  package init() {}

  /// Where a call of `client` goes; `needsUser` when it is a claim that counts against the
  /// caller's user (a release, or a claim of a client that holds claims already, needs none).
  /// A call of a client that waits for its question waits too, needed or not, so that the
  /// client's calls are answered in order.
  package mutating func route(_ client: String, needsUser: Bool) -> Route {
    if let calls = waiting[client] {
      guard calls < Self.callsWaitingPerClient, laterCalls < Self.laterCallsWaiting else { return .busy }
      waiting[client] = calls + 1
      laterCalls += 1
      return .wait
    }
    guard needsUser else { return .now(user: nil) }
    if let user = users[client] { return .now(user: user) }
    guard waiting.count < Self.clientsWaiting else { return .busy }
    waiting[client] = 1
    queue.append(client)
    return .wait
  }

  /// Whether `client`'s calls wait for its question.
  package func isWaiting(_ client: String) -> Bool { waiting[client] != nil }

  /// The clients to ask the bus about now; each is being asked from then on.
  package mutating func questionsToAsk() -> [String] {
    var ask: [String] = []
    while asking.count < Self.questionsAtOnce, queueHead < queue.count {
      let client = queue[queueHead]
      queueHead += 1
      asking.insert(client)
      ask.append(client)
    }
    if queueHead > 64, queueHead * 2 >= queue.count {
      queue.removeFirst(queueHead)
      queueHead = 0
    }
    return ask
  }

  /// The bus answered about `client`: its user, or nil (it did not know it, the client is gone,
  /// or the question could not be asked). Returns how many of its calls waited, now to be
  /// answered in order.
  package mutating func answered(_ user: UInt32?, for client: String) -> Int {
    asking.remove(client)
    if let user { remember(user, of: client) }
    let calls = waiting.removeValue(forKey: client) ?? 0
    laterCalls -= max(0, calls - 1)
    return calls
  }

  /// `client` left the bus: its user need not be remembered.
  package mutating func left(_ client: String) { users[client] = nil }

  /// Forgets everything: the bus connection is gone, and every client's with it.
  package mutating func removeAll() { self = ClaimantUsers() }

  private mutating func remember(_ user: UInt32, of client: String) {
    guard users.updateValue(user, forKey: client) == nil else { return }
    learnedOrder.append(client)
    // Past the limit the oldest goes; one that left since is gone already.
    while users.count > Self.remembered, learnedHead < learnedOrder.count {
      users[learnedOrder[learnedHead]] = nil
      learnedHead += 1
    }
    // Clients that left are still listed: past twice the limit, only those remembered stay.
    if learnedOrder.count - learnedHead > 2 * Self.remembered {
      learnedOrder = learnedOrder[learnedHead...].filter { users[$0] != nil }
      learnedHead = 0
    } else if learnedHead > 64, learnedHead * 2 >= learnedOrder.count {
      learnedOrder.removeFirst(learnedHead)
      learnedHead = 0
    }
  }
}
