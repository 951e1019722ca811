import CSeccompTestSupport
import Glibc
import Synchronization
import Testing

@testable import OrientSystem

@Suite("A socket peer's groups, from the kernel or the group database, for control-group membership")
struct PeerGroupsTests {
  @Test("The kernel tells a peer's supplementary groups as they were when it connected")
  func peerGroupsOfASocketPair() throws {
    var pair: [Int32] = [0, 0]
    try #require(socketpair(AF_UNIX, Int32(SOCK_STREAM.rawValue | SOCK_CLOEXEC.rawValue), 0, &pair) == 0)
    let one = FileDescriptor(adopting: pair[0])
    let other = FileDescriptor(adopting: pair[1])
    var own = [gid_t](repeating: 0, count: Int(NGROUPS_MAX))
    let count = getgroups(Int32(own.count), &own)
    try #require(count >= 0)
    let groups = try #require(try one.peerGroups(), "this kernel does not tell SO_PEERGROUPS (Linux < 4.13)")
    #expect(groups.sorted() == own.prefix(Int(count)).sorted())
    withExtendedLifetime(other) {}
  }

  @Test(
    "The group database names a group by name or gid and tells a user's groups, for kernels without SO_PEERGROUPS"
  )
  func groupDatabase() throws {
    let nobody = try #require(getpwnam("nobody"), "no user nobody")
    let group = nobody.pointee.pw_gid
    let name = String(cString: try #require(getgrgid(group), "no group \(group)").pointee.gr_name)
    #expect(AccountDatabase.groupID(name) == group)
    #expect(AccountDatabase.groupID(String(group)) == group)
    #expect(AccountDatabase.groupID("no-such-group-for-orientd") == nil)
    #expect(AccountDatabase.groups(of: nobody.pointee.pw_uid).contains(group))
    #expect(AccountDatabase.groups(of: 4_242_424).isEmpty)
    #expect(AccountDatabase.userName(0) == "root")
  }

  @Test("Where the kernel does not tell a peer's groups (before Linux 4.13), they are unknown, not empty")
  func kernelWithoutPeerGroups() throws {
    let outcome = Mutex<(installed: Bool, groups: [UInt32]??, error: String?)>((false, nil, nil))
    // The filter stays with the thread it is installed on: give it a thread of its own.
    let thread = try WorkerThread(name: "no-peergroups") {
      guard test_refuse_peer_groups() == 0 else { return }
      outcome.withLock { $0.installed = true }
      var pair: [Int32] = [0, 0]
      guard socketpair(AF_UNIX, Int32(SOCK_STREAM.rawValue | SOCK_CLOEXEC.rawValue), 0, &pair) == 0 else {
        return outcome.withLock { $0.error = "socketpair failed" }
      }
      let one = FileDescriptor(adopting: pair[0])
      let other = FileDescriptor(adopting: pair[1])
      do {
        let groups = try one.peerGroups()
        outcome.withLock { $0.groups = .some(groups) }
      } catch {
        outcome.withLock { $0.error = "\(error)" }
      }
      withExtendedLifetime(other) {}
    }
    #expect(thread.join(within: .seconds(30)))
    let state = outcome.withLock { $0 }
    try #require(state.installed, "cannot install a seccomp filter here")
    #expect(state.error == nil)
    #expect(state.groups == .some(nil))
  }
}
