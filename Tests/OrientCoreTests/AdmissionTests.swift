import OrientCore
import Testing

@Suite("Admitting socket clients: the total, the share per user and the slots kept for owners")
struct AdmissionTests {
  /// Admits `times` clients of `uid` and returns how many were admitted.
  func admit(_ admission: inout Admission, _ uid: UInt32?, times: Int) -> Int {
    (0..<times).filter { _ in admission.admit(uid) == nil }.count
  }

  @Test("A sixteenth of the slots, at least one, is kept for root and orientd's own user")
  func reserveSize() {
    let sizes = [1, 15, 16, 31, 32, 256, 4096].map {
      Admission(maxClients: $0, maxClientsPerUser: 64, ownUID: 1000).reservedForOwners
    }
    #expect(sizes == [1, 1, 1, 1, 2, 16, 256])
  }

  @Test("Root and orientd's own user are limited only by the total, not by the share per user")
  func ownersOnlyByTotal() {
    var admission = Admission(maxClients: 16, maxClientsPerUser: 2, ownUID: 990)
    #expect(admit(&admission, 0, times: 10) == 10)
    #expect(admit(&admission, 990, times: 10) == 6)
    #expect(admission.refusal(for: 0) == .full(maxClients: 16))
    #expect(admission.refusal(for: 990) == .full(maxClients: 16))
    #expect(admission.count == 16)
  }

  @Test("Other users together take every slot but the reserve; root then still gets in")
  func othersStopAtTheReserve() {
    var admission = Admission(maxClients: 16, maxClientsPerUser: 64, ownUID: 990)
    #expect(admit(&admission, 1000, times: 20) == 15)
    #expect(admission.refusal(for: 1000) == .reservedForOwners(othersMax: 15))
    #expect(admission.refusal(for: 1001) == .reservedForOwners(othersMax: 15))
    #expect(admission.admit(0) == nil)
    #expect(admission.refusal(for: 990) == .full(maxClients: 16))
  }

  @Test("Four users of four clients each hold 15 of 16 slots, as the hostile-client test expects")
  func severalUsersTogether() {
    var admission = Admission(maxClients: 16, maxClientsPerUser: 4, ownUID: 990)
    let held = [65534, 65533, 65532, 65531].map { admit(&admission, $0, times: 4) }
    #expect(held == [4, 4, 4, 3])
    #expect(admission.refusal(for: 0) == nil)
  }

  @Test("Slots the owners hold do not count against the other users' share")
  func ownersDoNotShrinkTheOthersShare() {
    var admission = Admission(maxClients: 32, maxClientsPerUser: 64, ownUID: 990)
    #expect(admit(&admission, 0, times: 1) == 1)
    #expect(admit(&admission, 990, times: 1) == 1)
    #expect(admit(&admission, 1000, times: 40) == 30)
    #expect(admission.refusal(for: 1000) == .full(maxClients: 32))
  }

  @Test("When orientd runs as root, root's clients count once as the owners'")
  func rootDaemonCountsOwnersOnce() {
    var admission = Admission(maxClients: 32, maxClientsPerUser: 64, ownUID: 0)
    #expect(admit(&admission, 0, times: 1) == 1)
    // One owner slot is taken and one kept: the others get 30, not 31.
    #expect(admit(&admission, 1000, times: 40) == 30)
    #expect(admission.refusal(for: 1000) == .reservedForOwners(othersMax: 30))
    #expect(admission.admit(0) == nil)
  }

  @Test("One user holds at most its share; another user is still admitted")
  func shareOfOneUser() {
    var admission = Admission(maxClients: 256, maxClientsPerUser: 4, ownUID: 990)
    #expect(admit(&admission, 1000, times: 6) == 4)
    #expect(admission.refusal(for: 1000) == .perUserLimit(maxClientsPerUser: 4))
    #expect(admission.clients(of: 1000) == 4)
    #expect(admission.admit(1001) == nil)
    #expect(admission.count == 5)
  }

  @Test("A peer whose user is unknown counts against the total and the reserve, not against a user")
  func unknownPeers() {
    var admission = Admission(maxClients: 16, maxClientsPerUser: 2, ownUID: 990)
    #expect(admit(&admission, nil, times: 20) == 15)
    #expect(admission.refusal(for: nil) == .reservedForOwners(othersMax: 15))
    #expect(admission.refusal(for: 1000) == .reservedForOwners(othersMax: 15))
    #expect(admission.admit(0) == nil)
    #expect(admission.clients(of: 1000) == 0)
  }

  @Test("A refused client takes no slot; a released one frees its slot and its user's share")
  func refusalAndRelease() {
    var admission = Admission(maxClients: 256, maxClientsPerUser: 2, ownUID: 990)
    #expect(admit(&admission, 1000, times: 2) == 2)
    #expect(admission.admit(1000) == .perUserLimit(maxClientsPerUser: 2))
    #expect(admission.count == 2)
    admission.release(1000)
    #expect(admission.clients(of: 1000) == 1)
    #expect(admission.count == 1)
    #expect(admission.admit(1000) == nil)
    admission.release(1000)
    admission.release(1000)
    #expect(admission.clients(of: 1000) == 0)
    #expect(admission.count == 0)
    // Releasing more than was admitted leaves nothing negative behind.
    admission.release(1000)
    #expect(admission.count == 0)
    #expect(admit(&admission, 1000, times: 3) == 2)
  }

  @Test("The user at a seat takes a reserved slot when other users hold all theirs, within its share")
  func seatUserSharesTheReserve() {
    var admission = Admission(maxClients: 32, maxClientsPerUser: 8, ownUID: 990)
    // Four other accounts take every slot left to others: 30 of 32.
    let held = [60001, 60002, 60003, 60004].map { admit(&admission, UInt32($0), times: 8) }
    #expect(held == [8, 8, 8, 6])
    // The same user, not at a seat, is refused; at a seat, it gets a reserved slot.
    #expect(admission.refusal(for: 1000) == .reservedForOwners(othersMax: 30))
    #expect(admission.admit(1000, isActiveSessionUser: true) == nil)
    #expect(admission.clients(of: 1000) == 1)
    // The reserve is shared: root takes the last slot.
    #expect(admission.admit(0) == nil)
    #expect(admission.refusal(for: 1000, isActiveSessionUser: true) == .full(maxClients: 32))
  }

  @Test("The user at a seat keeps its share per user, and an unknown peer is never it")
  func seatUserKeepsItsShare() {
    var admission = Admission(maxClients: 256, maxClientsPerUser: 2, ownUID: 990)
    #expect((0..<4).filter { _ in admission.admit(1000, isActiveSessionUser: true) == nil }.count == 2)
    #expect(admission.refusal(for: 1000, isActiveSessionUser: true) == .perUserLimit(maxClientsPerUser: 2))
    var crowded = Admission(maxClients: 16, maxClientsPerUser: 64, ownUID: 990)
    #expect(admit(&crowded, 1001, times: 15) == 15)
    #expect(crowded.refusal(for: nil, isActiveSessionUser: true) == .reservedForOwners(othersMax: 15))
  }

  @Test("A full server is refused to everyone until a client leaves")
  func fullUntilRelease() {
    var admission = Admission(maxClients: 2, maxClientsPerUser: 64, ownUID: 990)
    #expect(admit(&admission, 0, times: 2) == 2)
    #expect(admission.refusal(for: 0) == .full(maxClients: 2))
    #expect(admission.refusal(for: nil) == .full(maxClients: 2))
    admission.release(0)
    #expect(admission.refusal(for: 0) == nil)
  }

  @Test("Refusals name the limit and whom the reserve is for after error too-many-clients")
  func refusalTexts() {
    #expect(
      Admission.Refusal.full(maxClients: 16).message
        == "at most 16 clients are served at once (--max-clients)")
    #expect(
      Admission.Refusal.reservedForOwners(othersMax: 15).message
        == "at most 15 clients of other users than root, orientd's and the one at a seat are served at once")
    #expect(
      Admission.Refusal.perUserLimit(maxClientsPerUser: 4).message
        == "at most 4 clients per user (--max-clients-per-user)")
  }
}
