import OrientCore
import OrientSystem
import Testing

@testable import OrientDaemon

/// `supports LIST` on the served socket: each client its own orientation, worked out by the
/// server from the host's policy.
@Suite("Each client its own supported orientations, in the test process")
struct SupportsTests {
  @Test("Two clients with different sets get different orientation lines for the same device change")
  func twoSetsSameChange() throws {
    let served = try ServedSocket()
    let landscape = try served.connect()
    let portrait = try served.connect()
    let plain = try served.connect()
    for client in [landscape, portrait, plain] {
      #expect(served.lines(6, of: client) == normalGreeting)
      client.forget()
    }
    landscape.send("supports normal,bottom-up\n")
    #expect(served.lines(1, of: landscape) == ["ok"], "normal is already the landscape client's orientation")
    portrait.send("format json\nsupports left-up, right-up\n")
    #expect(
      served.lines(3, of: portrait) == [
        #"{"reply":"ok"}"#, #"{"event":"orientation","value":"undefined"}"#, #"{"reply":"ok"}"#,
      ])
    for client in [landscape, portrait] { client.forget() }

    served.host.deviceTurns(to: .leftUp)
    #expect(served.lines(2, of: plain) == ["device left-up", "orientation left-up"])
    #expect(served.lines(1, of: landscape) == ["device left-up"])
    #expect(
      served.lines(2, of: portrait) == [
        #"{"event":"device","value":"left-up"}"#, #"{"event":"orientation","value":"left-up"}"#,
      ])
    for client in [landscape, portrait, plain] { client.forget() }

    served.host.deviceTurns(to: .bottomUp)
    #expect(served.lines(2, of: landscape) == ["device bottom-up", "orientation bottom-up"])
    #expect(served.lines(1, of: portrait) == [#"{"event":"device","value":"bottom-up"}"#])
    #expect(served.lines(2, of: plain) == ["device bottom-up", "orientation bottom-up"])
    for client in [landscape, portrait, plain] { client.forget() }

    // Each one's get answers with its own orientation; nothing else came meanwhile.
    landscape.send("get\n")
    #expect(
      served.lines(7, of: landscape).filter { $0.hasPrefix("orientation") } == ["orientation bottom-up"])
    portrait.send("format text\nget\n")
    #expect(served.lines(8, of: portrait).filter { $0.hasPrefix("orientation") } == ["orientation left-up"])
    plain.send("ping\n")
    #expect(served.lines(1, of: plain) == ["pong"])
    // The host's own orientation (its log, D-Bus and the hooks) is the policy's.
    #expect(served.host.tracker.orientation == .bottomUp)
  }

  @Test("A set none of whose orientations is allowed is refused and changes nothing")
  func emptyIntersectionRefused() throws {
    let served = try ServedSocket()
    let admin = try served.connect()
    let client = try served.connect()
    _ = served.lines(6, of: admin)
    _ = served.lines(6, of: client)
    admin.forget()
    admin.send("allow normal,bottom-up\n")
    #expect(served.lines(2, of: admin) == ["allowed normal,bottom-up", "ok"])
    #expect(served.lines(7, of: client).last == "allowed normal,bottom-up")
    client.forget()
    client.send("supports left-up,right-up\nsupports face-up\nget\n")
    let lines = served.lines(9, of: client)
    #expect(
      lines.first == "error not-allowed none of left-up,right-up is allowed (allowed: normal,bottom-up)")
    #expect(lines.dropFirst().first?.hasPrefix("error bad-argument unknown screen orientation") == true)
    #expect(lines.dropFirst(2).contains("orientation normal"))
    #expect(lines.last == "ok")
  }

  @Test("A client's set goes with its connection; another client of the same set keeps its own lines")
  func closingEndsIt() throws {
    let served = try ServedSocket()
    let first = try served.connect()
    let second = try served.connect()
    for client in [first, second] {
      _ = served.lines(6, of: client)
      client.forget()
      client.send("supports normal\n")
      #expect(served.lines(1, of: client) == ["ok"])
      client.forget()
    }
    first.send("quit\n")
    #expect(served.turn(until: { first.closedByServer }))
    served.host.deviceTurns(to: .leftUp)
    second.send("ping\n")
    #expect(
      served.lines(2, of: second) == ["device left-up", "pong"], "normal is the only orientation it supports")
    // A newcomer sees the policy's orientation, and declares the same set afresh.
    let third = try served.connect()
    #expect(served.lines(6, of: third).contains("orientation left-up"))
    third.forget()
    third.send("supports normal\n")
    #expect(served.lines(2, of: third) == ["orientation normal", "ok"])
  }
}
