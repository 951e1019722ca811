import Testing

@testable import OrientCore

@Suite("Rendering and parsing protocol lines")
struct ProtocolTests {
  @Test("Every state line parses back to the change it was rendered from")
  func stateLinesRoundTrip() {
    let changes: [StateChange] = [
      .sensor(online: true), .sensor(online: false), .device(nil), .device(.faceDown), .orientation(nil),
      .orientation(.rightUp), .lock(nil), .lock(.bottomUp), .allowed(.all),
      .allowed(AllowedOrientations(.leftUp)),
    ]
    for change in changes {
      #expect(StateChange(line: change.line) == change)
    }
    #expect(StateChange(line: "orientation face-up") == nil)
    #expect(StateChange(line: "ok") == nil)
  }

  @Test("JSON events carry the value as a string, and allowed as an array")
  func jsonEvents() {
    #expect(
      ProtocolRendering.line(for: .orientation(.leftUp), format: .json)
        == "{\"event\":\"orientation\",\"value\":\"left-up\"}\n")
    #expect(
      ProtocolRendering.line(for: .allowed(try! AllowedOrientations.parse("normal,left-up")), format: .json)
        == "{\"event\":\"allowed\",\"value\":[\"normal\",\"left-up\"]}\n")
    #expect(
      ProtocolRendering.line(for: .lock(nil), format: .json) == "{\"event\":\"lock\",\"value\":\"off\"}\n")
  }

  @Test("Replies render in text and JSON, errors with code and escaped message")
  func replies() {
    let error = ProtocolError(.notAllowed, "say \"no\"\n")
    #expect(ProtocolRendering.line(for: .ok, format: .text) == "ok\n")
    #expect(ProtocolRendering.line(for: .error(error), format: .text) == "error not-allowed say \"no\"\n\n")
    #expect(ProtocolRendering.line(for: .pong, format: .json) == "{\"reply\":\"pong\"}\n")
    #expect(
      ProtocolRendering.line(for: .error(error), format: .json)
        == "{\"reply\":\"error\",\"code\":\"not-allowed\",\"message\":\"say \\\"no\\\"\\n\"}\n")
  }

  @Test("Commands parse with their arguments")
  func commands() throws {
    #expect(try ClientCommand.parse("get") == .get(nil))
    #expect(try ClientCommand.parse("lock") == .lock(nil))
    #expect(try ClientCommand.parse("lock right-up") == .lock(.rightUp))
    #expect(try ClientCommand.parse("rotate cw") == .rotate(.clockwise))
    #expect(try ClientCommand.parse("rotate  ccw") == .rotate(.counterClockwise))
    #expect(
      try ClientCommand.parse("allow normal, left-up")
        == .allow(try AllowedOrientations.parse("normal,left-up")))
    #expect(try ClientCommand.parse("allow all") == .allow(.all))
    #expect(
      try ClientCommand.parse("supports normal, bottom-up")
        == .supports(try AllowedOrientations.parse("normal,bottom-up")))
    #expect(try ClientCommand.parse("supports all") == .supports(.all))
    #expect(try ClientCommand.parse("format json") == .format(.json))
    #expect(try ClientCommand.parse("ping") == .ping)
    #expect(try ClientCommand.parse("quit") == .quit)
  }

  @Test(
    "Bad commands get the right error code",
    arguments: [
      ("frobnicate", ProtocolError.Code.unknownCommand), ("GET", .unknownCommand), ("get now", .badArgument),
      ("lock face-up", .badArgument), ("lock a b", .badArgument), ("rotate", .badArgument),
      ("rotate left", .badArgument), ("allow", .badArgument), ("allow up", .badArgument),
      ("format xml", .badArgument), ("ping pong", .badArgument), ("supports", .badArgument),
      ("supports face-up", .badArgument), ("supports normal,,left-up", .badArgument),
    ])
  func badCommands(line: String, code: ProtocolError.Code) {
    #expect {
      try ClientCommand.parse(Substring(line))
    } throws: { error in
      (error as? ProtocolError)?.code == code
    }
  }

  @Test("Echoed client text is limited to printable ASCII")
  func printable() {
    #expect(ProtocolError.printable("a\u{1b}b\u{e9}") == "a?b?")
    #expect(ProtocolError.printable(Substring(String(repeating: "x", count: 50))).hasSuffix("..."))
  }
}
