import OrientCore
import Testing

@Suite("Which user runs each D-Bus client, asked once and remembered")
struct ClaimantUsersTests {
  @Test("A new claimant's call waits for the question about it; its user, once known, answers at once")
  func asksOnceThenRemembers() {
    var users = ClaimantUsers()
    #expect(users.route(":1.7", needsUser: true) == .wait)
    #expect(users.route(":1.7", needsUser: false) == .wait, "a release waits behind the claim")
    #expect(users.questionsToAsk() == [":1.7"])
    #expect(users.questionsToAsk().isEmpty, "a question is asked once")
    #expect(users.answered(65534, for: ":1.7") == 2)
    #expect(!users.isWaiting(":1.7"))
    // Refused and trying again, or claiming later: no second question.
    #expect(users.route(":1.7", needsUser: true) == .now(user: 65534))
    #expect(users.questionsToAsk().isEmpty)
  }

  @Test("A call that needs no user, of a client that waits for nothing, is answered at once")
  func releasesDoNotWait() {
    var users = ClaimantUsers()
    #expect(users.route(":1.9", needsUser: false) == .now(user: nil))
    #expect(users.questionsToAsk().isEmpty)
  }

  @Test("Questions go a few at a time, in the order clients came, and never turn a client away early")
  func questionsInOrder() {
    var users = ClaimantUsers()
    let flood = (0..<200).map { ":1.\($0)" }
    for client in flood { #expect(users.route(client, needsUser: true) == .wait) }
    #expect(users.questionsToAsk() == Array(flood.prefix(ClaimantUsers.questionsAtOnce)))
    // Another user's client, after the flood: it waits its turn, it is not refused.
    #expect(users.route(":1.999", needsUser: true) == .wait)
    var asking = Array(flood.prefix(ClaimantUsers.questionsAtOnce))
    var order = asking
    while !asking.isEmpty {
      let client = asking.removeFirst()
      _ = users.answered(client == ":1.999" ? 0 : 65534, for: client)
      let next = users.questionsToAsk()
      asking += next
      order += next
    }
    #expect(order == flood + [":1.999"])
    #expect(users.route(":1.999", needsUser: true) == .now(user: 0))
  }

  @Test("Calls piling up behind many clients are bounded in all, but never refuse a new client's first call")
  func boundsLaterCallsInAll() {
    var users = ClaimantUsers()
    let perClient = ClaimantUsers.callsWaitingPerClient
    let clients = ClaimantUsers.laterCallsWaiting / (perClient - 1)
    for index in 0..<clients {
      for _ in 0..<perClient { #expect(users.route(":3.\(index)", needsUser: true) == .wait) }
    }
    let beyond = ":3.\(clients)"
    #expect(users.route(beyond, needsUser: true) == .wait, "a new client's first call waits its turn")
    let left = ClaimantUsers.laterCallsWaiting - clients * (perClient - 1)
    for _ in 0..<left { #expect(users.route(beyond, needsUser: true) == .wait) }
    #expect(users.route(beyond, needsUser: true) == .busy, "past the calls waiting in all")
    // Answered, a client's calls make room again.
    _ = users.questionsToAsk()
    #expect(users.answered(1000, for: ":3.0") == perClient)
    #expect(users.route(beyond, needsUser: true) == .wait)
  }

  @Test("A client's calls that pile up while it waits, and clients past the limit, are refused as busy")
  func boundsWhatWaits() {
    var users = ClaimantUsers()
    for _ in 0..<ClaimantUsers.callsWaitingPerClient {
      #expect(users.route(":1.1", needsUser: true) == .wait)
    }
    #expect(users.route(":1.1", needsUser: true) == .busy)
    for index in 2...ClaimantUsers.clientsWaiting {
      #expect(users.route(":1.\(index)", needsUser: true) == .wait)
    }
    #expect(users.route(":1.100000", needsUser: true) == .busy)
    // A client known already is answered whatever waits.
    _ = users.questionsToAsk()
    _ = users.answered(1000, for: ":1.1")
    #expect(users.route(":1.1", needsUser: true) == .now(user: 1000))
  }

  @Test("Users are remembered up to a limit, oldest first out, and a client that left is forgotten")
  func remembersABoundedNumber() {
    var users = ClaimantUsers()
    let count = ClaimantUsers.remembered + 10
    for index in 0..<count {
      let client = ":2.\(index)"
      _ = users.route(client, needsUser: true)
      _ = users.questionsToAsk()
      _ = users.answered(UInt32(index), for: client)
    }
    #expect(users.route(":2.0", needsUser: true) == .wait, "the oldest was forgotten")
    #expect(users.route(":2.\(count - 1)", needsUser: true) == .now(user: UInt32(count - 1)))
    users.left(":2.\(count - 1)")
    #expect(users.route(":2.\(count - 1)", needsUser: true) == .wait)
  }

  @Test("An unanswered question answers its calls and remembers nothing")
  func unknownClient() {
    var users = ClaimantUsers()
    _ = users.route(":1.5", needsUser: true)
    _ = users.questionsToAsk()
    #expect(users.answered(nil, for: ":1.5") == 1)
    #expect(users.route(":1.5", needsUser: true) == .wait)
  }
}
