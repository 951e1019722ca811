import OrientCore
import Testing

@Suite("Who may control: root, orientd's user, the control group and the user at a seat")
struct ControlRuleTests {
  let noGroup = ControlRule(ownUID: 990, ownUserName: "orientd", group: nil)
  let withGroup = ControlRule(ownUID: 990, ownUserName: "orientd", group: (id: 4242, name: "orient"))
  let nobody = ControlRule.Peer(uid: 65534, gid: 65534, groups: [])

  @Test("Without a control group, nobody may not control unless logind says nobody is at a seat")
  func nobodyNeedsTheSeat() {
    #expect(!noGroup.allowsAtAnySeat(nobody))
    #expect(!noGroup.allows(nobody, seats: .activeUsers([])))
    #expect(!noGroup.allows(nobody, seats: .activeUsers([1000])))
    #expect(!noGroup.allows(nobody, seats: .noLogind))
    #expect(noGroup.allows(nobody, seats: .activeUsers([1000, 65534])))
  }

  @Test("Root and orientd's user may control whoever sits at a seat, with or without logind")
  func ownersAlways() {
    for rule in [noGroup, withGroup] {
      for uid: UInt32 in [0, 990] {
        let peer = ControlRule.Peer(uid: uid, gid: 65534, groups: [])
        #expect(rule.allowsAtAnySeat(peer))
        #expect(rule.allows(peer, seats: .noLogind))
        #expect(rule.allows(peer, seats: .activeUsers([1000])))
      }
    }
  }

  @Test(
    "The control group, as effective or supplementary group, adds to the seat's user and takes nothing from it"
  )
  func groupAddsToTheSeat() {
    let supplementary = ControlRule.Peer(uid: 1001, gid: 100, groups: [27, 4242])
    let effective = ControlRule.Peer(uid: 1002, gid: 4242, groups: [])
    let outsider = ControlRule.Peer(uid: 1003, gid: 100, groups: [27])
    #expect(withGroup.allows(supplementary, seats: .noLogind))
    #expect(withGroup.allows(effective, seats: .activeUsers([])))
    #expect(!withGroup.allows(outsider, seats: .activeUsers([1000])))
    #expect(withGroup.allows(outsider, seats: .activeUsers([1003])))
    // Without a group configured, the same groups give nothing.
    #expect(!noGroup.allows(supplementary, seats: .activeUsers([1000])))
  }

  @Test("A peer the kernel told nothing of may not control, even as the seat's user would")
  func unknownPeer() {
    #expect(!noGroup.allows(nil, seats: .activeUsers([0, 65534])))
    #expect(!withGroup.allows(nil, seats: .noLogind))
  }

  @Test("The refusal names who may control, the group to join, and what to do without logind")
  func refusalNamesWhoMay() {
    #expect(
      noGroup.requirement(seats: .activeUsers([]))
        == "control needs root, orientd's user (orientd) or the user of the active session at a seat (logind)"
    )
    #expect(
      withGroup.requirement(seats: .activeUsers([]))
        == "control needs root, orientd's user (orientd), members of group 'orient' (control-group) "
        + "or the user of the active session at a seat (logind)")
    let withoutLogind = noGroup.requirement(seats: .noLogind)
    #expect(withoutLogind.contains("without logind no session is known to be at a seat"))
    #expect(withoutLogind.hasSuffix("set control-group to let other users control"))
    #expect(
      withGroup.requirement(seats: .noLogind).hasSuffix("join group 'orient' to let other users control"))
    let unnamed = ControlRule(ownUID: 4_242_424, ownUserName: nil, group: nil)
    #expect(unnamed.requirement(seats: .activeUsers([])).contains("orientd's user (uid 4242424)"))
  }
}
