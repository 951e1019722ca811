import OrientCore
import Testing

@Suite("Pacing the state file's writes, user by user")
struct SavePacingTests {
  static func ms(_ value: Int64) -> Duration { .milliseconds(value) }

  @Test("A few saves are each written at once; past four in a second they wait for a slot")
  func pacesOneUser() {
    var pacing = SavePacing(writesPerSecond: 4)
    for time in [0, 10, 20, 30] as [Int64] {
      #expect(pacing.request(from: 65534, at: Self.ms(time)) == .writeNow)
      pacing.wrote(at: Self.ms(time))
    }
    #expect(pacing.request(from: 65534, at: Self.ms(40)) == .writeAt(Self.ms(1000)))
    #expect(pacing.hasWaiting)
    // Later requests of the same user wait for the same slot.
    #expect(pacing.request(from: 65534, at: Self.ms(500)) == .writeAt(Self.ms(1000)))
    pacing.wrote(at: Self.ms(1000))
    #expect(!pacing.hasWaiting)
    #expect(pacing.request(from: 65534, at: Self.ms(1001)) == .writeAt(Self.ms(1010)))
  }

  @Test("One user's flood never delays another user's save, which serves the flood's waiting change too")
  func otherUsersGoFirst() {
    var pacing = SavePacing(writesPerSecond: 4)
    for time in [0, 1, 2, 3] as [Int64] {
      _ = pacing.request(from: 65534, at: Self.ms(time))
      pacing.wrote(at: Self.ms(time))
    }
    #expect(pacing.request(from: 65534, at: Self.ms(5)) == .writeAt(Self.ms(1000)))
    // Root's lock: written at once.
    #expect(pacing.request(from: 0, at: Self.ms(6)) == .writeNow)
    pacing.wrote(at: Self.ms(6))
    #expect(!pacing.hasWaiting, "the write saved the waiting change as well")
    // The write counted against the flooding user too: it stays paced.
    #expect(pacing.request(from: 65534, at: Self.ms(7)) == .writeAt(Self.ms(1001)))
    // And the daemon's own saves (a reload) are paced apart from both.
    #expect(pacing.request(from: nil, at: Self.ms(8)) == .writeNow)
  }

  @Test("Slots come back a second after the writes that took them")
  func slotsComeBack() {
    var pacing = SavePacing(writesPerSecond: 1)
    #expect(pacing.request(from: 1000, at: .zero) == .writeNow)
    pacing.wrote(at: .zero)
    #expect(pacing.request(from: 1000, at: Self.ms(999)) == .writeAt(Self.ms(1000)))
    #expect(pacing.request(from: 1000, at: Self.ms(1000)) == .writeNow)
  }
}
