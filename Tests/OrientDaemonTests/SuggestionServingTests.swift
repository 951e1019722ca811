import OrientCore
import OrientSystem
import Testing

@testable import OrientDaemon

/// The time `milliseconds` after the origin.
private func at(_ milliseconds: Int) -> SampleTime { SampleTime(sinceOrigin: .milliseconds(milliseconds)) }

@Suite("Rotation suggestions on the socket server, served in the test process")
struct SuggestionServingTests {
  @Test(
    "Only a client that subscribed to suggestion hears it; get suggestion answers it; accept-suggestion locks there"
  )
  func subscribeGetAccept() throws {
    let served = try ServedSocket()
    let listener = try served.connect()
    let other = try served.connect()
    _ = served.lines(6, of: listener)
    _ = served.lines(6, of: other)
    listener.forget()
    other.forget()
    listener.send("lock\nsubscribe all,suggestion\n")
    #expect(served.lines(3, of: listener) == ["lock normal", "ok", "ok"])
    #expect(served.lines(1, of: other) == ["lock normal"])
    listener.forget()
    other.forget()
    served.host.deviceTurns(to: .rightUp, at: at(1000))
    served.host.suggestionTime(reaches: at(1500))
    #expect(served.lines(2, of: listener) == ["device right-up", "suggestion right-up"])
    listener.forget()
    // The other client hears the device, and not the suggestion, which comes to nobody
    // else: what reaches it next is the reply to its own get.
    other.send("get suggestion\n")
    #expect(served.lines(3, of: other) == ["device right-up", "suggestion right-up", "ok"])
    other.forget()
    other.send("accept-suggestion\n")
    #expect(served.lines(3, of: other) == ["lock right-up", "orientation right-up", "ok"])
    other.forget()
    #expect(
      served.lines(3, of: listener) == ["lock right-up", "orientation right-up", "suggestion none"])
    other.send("get suggestion\n")
    #expect(served.lines(2, of: other) == ["suggestion none", "ok"])
  }

  @Test(
    "accept-suggestion with none suggested is refused with no-suggestion; a peer that may not control is refused first"
  )
  func refusals() throws {
    let served = try ServedSocket()
    let peer = try served.connect()
    _ = served.lines(6, of: peer)
    peer.forget()
    peer.send("accept-suggestion\n")
    #expect(
      served.lines(1, of: peer) == [
        "error no-suggestion no rotation is suggested now (none was made, or it went)"
      ])

    let closed = try ServedSocket(control: RefusingGate())
    _ = try closed.host.tracker.control(.lock(.normal))
    closed.host.deviceTurns(to: .leftUp, at: at(0))
    closed.host.suggestionTime(reaches: at(500))
    #expect(closed.host.suggested == .leftUp, "the premise: there is one to accept")
    let reader = try closed.connect()
    _ = closed.lines(6, of: reader)
    reader.forget()
    reader.send("accept-suggestion\n")
    #expect(closed.lines(1, of: reader) == ["error permission-denied test gate: nobody may control"])
    #expect(closed.host.controls.isEmpty, "the daemon must not be asked")
    #expect(closed.host.tracker.policy.lock == .normal)
  }
}
