import OrientCore
import Testing

@Suite("One client's protocol session: its settings and what each line asks of the server")
struct ProtocolSessionTests {
  func handle(_ session: inout ProtocolSession, _ text: String) -> ProtocolSession.Step {
    session.handle(Array(text.utf8))
  }

  @Test("A new session is text, hears every change, streams nothing and has sent no command")
  func newSession() {
    let session = ProtocolSession()
    #expect(session.format == .text)
    #expect(session.subscription == .all)
    #expect(session.sampleStream == nil)
    #expect(!session.hasSentCommand)
    #expect(session.needs == ClientNeeds(deviceChanges: true, samples: false))
  }

  @Test("An empty line is ignored and is not a command; anything else is, even a bad one")
  func emptyLines() {
    var session = ProtocolSession()
    #expect(handle(&session, "") == .nothing)
    #expect(!session.hasSentCommand)
    #expect(handle(&session, "bogus") == .reply(.error(ProtocolError(.unknownCommand, "'bogus' (try help)"))))
    #expect(session.hasSentCommand)
  }

  @Test("A line that is not UTF-8, or holds a NUL, is a bad-encoding error")
  func badEncoding() {
    let expected = ProtocolSession.Step.reply(
      .error(ProtocolError(.badEncoding, "lines must be UTF-8 text without NUL bytes")))
    var session = ProtocolSession()
    #expect(session.handle([0x67, 0xFF, 0x74]) == expected)
    #expect(session.handle(Array("get".utf8) + [0] + Array("x".utf8)) == expected)
    #expect(session.hasSentCommand)
  }

  @Test("A command that does not parse is answered with the parser's error")
  func parseErrors() {
    var session = ProtocolSession()
    #expect(
      handle(&session, "get now")
        == .reply(
          .error(
            ProtocolError(
              .badArgument,
              "unknown state 'now' (expected all or a list of sensor, device, orientation, lock, allowed, mode, "
                + "hinge, light, proximity, heading, suggestion)"))))
    #expect(handle(&session, "get light,heading") == .sendState([.light, .heading]))
    #expect(
      handle(&session, "format xml")
        == .reply(.error(ProtocolError(.badArgument, "expected json or text, got 'xml'"))))
    #expect(session.format == .text, "a refused setting changes nothing")
  }

  @Test("format changes the session's format, and the ok that follows is in the new one")
  func format() {
    var session = ProtocolSession()
    #expect(handle(&session, "format json") == .reply(.ok))
    #expect(session.format == .json)
    #expect(handle(&session, "format text") == .reply(.ok))
    #expect(session.format == .text)
  }

  @Test("subscribe replaces the subscription, and with it whether the client needs device changes")
  func subscribe() {
    var session = ProtocolSession()
    #expect(handle(&session, "subscribe orientation,mode") == .reply(.ok))
    #expect(session.subscription == [.orientation, .mode])
    #expect(!session.needs.deviceChanges)
    #expect(handle(&session, "subscribe device") == .reply(.ok))
    #expect(session.needs.deviceChanges)
    #expect(
      handle(&session, "subscribe")
        == .reply(.error(ProtocolError(.badArgument, "usage: subscribe all|LIST"))))
    #expect(session.subscription == .device)
  }

  @Test("samples starts and stops the sample stream, and with it whether the client needs samples")
  func samples() {
    var session = ProtocolSession()
    #expect(handle(&session, "samples raw") == .reply(.ok))
    #expect(session.sampleStream == .raw)
    #expect(session.needs.samples)
    #expect(handle(&session, "samples corrected") == .reply(.ok))
    #expect(session.sampleStream == .corrected)
    #expect(handle(&session, "samples off") == .reply(.ok))
    #expect(session.sampleStream == nil)
    #expect(!session.needs.samples)
  }

  @Test("get, info and help ask for their lines; ping is answered pong; quit closes")
  func queries() {
    var session = ProtocolSession()
    #expect(handle(&session, "get") == .sendState(nil))
    #expect(handle(&session, "info") == .sendInfo)
    #expect(handle(&session, "help") == .sendHelp)
    #expect(handle(&session, "ping") == .reply(.pong))
    #expect(handle(&session, "quit") == .close)
  }

  @Test("Control commands go to the server with their arguments, and change no setting")
  func controlCommands() throws {
    var session = ProtocolSession()
    #expect(handle(&session, "lock left-up") == .control(.lock(.leftUp)))
    #expect(handle(&session, "unlock") == .control(.unlock))
    #expect(handle(&session, "rotate cw") == .control(.rotate(.clockwise)))
    #expect(handle(&session, "allow normal") == .control(.allow(try AllowedOrientations.parse("normal"))))
    #expect(handle(&session, "mode tablet") == .control(.mode(.tablet)))
    #expect(handle(&session, "mode auto") == .control(.mode(nil)))
    #expect(session.subscription == .all && session.format == .text && session.sampleStream == nil)
  }

  @Test("supports goes to the server with its set, and the session's view changes only once it is declared")
  func supports() throws {
    var session = ProtocolSession()
    #expect(session.view == .policy)
    let landscape = try AllowedOrientations.parse("normal,bottom-up")
    #expect(handle(&session, "supports normal,bottom-up") == .supports(landscape))
    #expect(session.view == .policy, "the server may still refuse the set")
    let view = try ClientScreenView(supporting: landscape, under: ScreenPolicy())
    session.declared(view)
    #expect(session.view == view)
    #expect(handle(&session, "supports all") == .supports(.all))
    #expect(
      handle(&session, "supports")
        == .reply(.error(ProtocolError(.badArgument, "usage: supports all|LIST"))))
  }

  @Test("A session that ends needs nothing of the sensor and holds no set")
  func end() throws {
    var session = ProtocolSession()
    _ = handle(&session, "samples raw")
    session.declared(try ClientScreenView(supporting: AllowedOrientations(.normal), under: ScreenPolicy()))
    session.end()
    #expect(session.needs == .nothing)
    #expect(session.view == .policy)
  }
}
