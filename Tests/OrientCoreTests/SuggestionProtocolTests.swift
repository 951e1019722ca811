import OrientCore
import Testing

@Suite("Rotation suggestions on the socket's protocol")
struct SuggestionProtocolTests {
  @Test("A suggestion reads suggestion left-up, or suggestion none, in text and JSON, and parses back")
  func lines() {
    let made = StateChange.suggestion(.leftUp)
    let gone = StateChange.suggestion(nil)
    #expect(ProtocolRendering.line(for: made, format: .text) == "suggestion left-up\n")
    #expect(ProtocolRendering.line(for: gone, format: .text) == "suggestion none\n")
    #expect(
      ProtocolRendering.line(for: made, format: .json) == "{\"event\":\"suggestion\",\"value\":\"left-up\"}\n"
    )
    #expect(
      ProtocolRendering.line(for: gone, format: .json) == "{\"event\":\"suggestion\",\"value\":\"none\"}\n")
    #expect(StateChange(line: "suggestion left-up") == made)
    #expect(StateChange(line: "suggestion none") == gone)
    #expect(StateChange(line: "suggestion face-up") == nil, "only a screen orientation is suggested")
    #expect(StateChange(line: "suggestion undefined") == nil)
  }

  @Test("accept-suggestion parses, takes no argument, and is a control command")
  func acceptCommand() throws {
    #expect(try ClientCommand.parse("accept-suggestion") == .acceptSuggestion)
    #expect(throws: ProtocolError(.badArgument, "accept-suggestion takes no argument")) {
      try ClientCommand.parse("accept-suggestion left-up")
    }
    var session = ProtocolSession()
    #expect(session.handle(Array("accept-suggestion".utf8)) == .control(.acceptSuggestion))
    #expect(ClientCommand.helpLines.contains { $0.hasPrefix("accept-suggestion: ") })
  }

  @Test("A client hears suggestions only when it names them, as it does a reading")
  func subscription() throws {
    #expect(!Subscription.all.includes(.suggestion(.leftUp)), "a new connection's state has no suggestion")
    let named = try Subscription.parse("all,suggestion")
    #expect(named.includes(.suggestion(.leftUp)))
    #expect(named.listText == "all,suggestion")
    #expect(named.readingKinds.isEmpty, "hearing suggestions reads no sensor")
    var session = ProtocolSession()
    #expect(session.handle(Array("subscribe orientation,suggestion".utf8)) == .reply(.ok))
    #expect(session.subscription == [.orientation, .suggestion])
    #expect(!session.needs.deviceChanges, "suggestions alone keep no device changes coming")
  }
}
