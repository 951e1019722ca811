import OrientSystem
import Testing

/// Messages as the sampling thread sends them: many samples, few changes.
private enum Message: Equatable, Sendable {
  case sample(Int)
  case change(Int)

  static let samples = MailboxKind("sample", limit: 4)
  static let changes = MailboxKind("change", limit: 100)

  var kind: MailboxKind {
    switch self {
    case .sample: return Self.samples
    case .change: return Self.changes
    }
  }
}

@Suite("A bounded mailbox between threads")
struct MailboxTests {
  @Test("A reader that falls behind finds at most a kind's limit of it waiting: the newest")
  func keepsTheNewestOfAKind() throws {
    let mailbox = try Mailbox<Message>(kind: \.kind)
    var dropped = 0
    for index in 0..<10_000 { mailbox.post(.sample(index)) { dropped += 1 } }
    #expect(mailbox.count == 4)
    #expect(dropped == 9_996)
    #expect(mailbox.drain() == [.sample(9_996), .sample(9_997), .sample(9_998), .sample(9_999)])
    #expect(mailbox.count == 0)
    #expect(mailbox.drain() == [])
  }

  @Test("A flood of samples never pushes out a change, and everything comes out in posting order")
  func floodKeepsOtherKinds() throws {
    let mailbox = try Mailbox<Message>(kind: \.kind)
    var posted: [Message] = []
    for index in 0..<1_000 {
      let message: Message = index % 100 == 0 ? .change(index) : .sample(index)
      posted.append(message)
      mailbox.post(message)
    }
    let drained = mailbox.drain()
    let changes = posted.filter { if case .change = $0 { return true } else { return false } }
    #expect(drained.filter { changes.contains($0) } == changes)
    #expect(drained.count == changes.count + 4)
    // The order of posting, samples and changes interleaved.
    #expect(drained == posted.filter { drained.contains($0) })
    #expect(drained.suffix(4) == [.sample(996), .sample(997), .sample(998), .sample(999)])
  }

  @Test("Posts from another thread all arrive, bounded, while the reader does not read")
  func postsFromAnotherThread() throws {
    let mailbox = try Mailbox<Message>(kind: \.kind)
    let thread = try WorkerThread(name: "poster") {
      for index in 0..<50_000 { mailbox.post(index % 1_000 == 0 ? .change(index) : .sample(index)) }
    }
    #expect(thread.join(within: .seconds(30)))
    #expect(mailbox.count == 50 + 4)
    let drained = mailbox.drain()
    #expect(drained.first == .change(0))
    #expect(drained.last == .sample(49_999))
  }

  @Test("A kind's oldest messages go first once it is over its limit")
  func changesOverTheirLimit() throws {
    let mailbox = try Mailbox<Message>(kind: \.kind)
    for index in 0..<150 { mailbox.post(.change(index)) }
    #expect(mailbox.drain() == (50..<150).map { .change($0) })
  }
}
