import Foundation
import Glibc
import OrientCore
import Testing

@testable import OrientClient
@testable import OrientSystem

/// A scripted orientd for one test: a listening socket in a scratch directory whose one
/// connection is answered in advance. The client's connect completes from the listen queue,
/// the server's lines wait in the socket, and what the client sent is read back afterwards:
/// no thread, no timing.
private final class ScriptedServer {
  private let directory: String
  let path: String
  private let listener: FileDescriptor

  init() throws {
    var template = Array("/tmp/orientctl-inprocess-XXXXXX".utf8CString)
    guard let made = mkdtemp(&template) else { throw SystemError("mkdtemp", code: .current) }
    directory = String(cString: made)
    path = directory + "/orientd.sock"
    guard let address = UnixAddress(path) else { throw SystemError("bind", code: .nameTooLong) }
    listener = FileDescriptor(
      adopting: socket(AF_UNIX, Int32(SOCK_STREAM.rawValue | SOCK_CLOEXEC.rawValue), 0))
    // Bound by hand rather than with `UnixSocket.listen`, which clears the umask around its
    // bind while other tests in this process create files.
    guard address.withSocketAddress({ bind(listener.rawValue, $0, $1) }) == 0,
      listen(listener.rawValue, 4) == 0
    else { throw SystemError("bind", code: .current) }
  }

  deinit { try? FileManager.default.removeItem(atPath: directory) }

  /// The client's connection, once it has connected.
  func accept() throws -> ScriptedConnection {
    let accepted = try listener.accept()
    guard let socket = accepted else { throw SystemError("accept", code: .wouldBlock) }
    return ScriptedConnection(socket: socket)
  }
}

/// The server's end of the client's connection.
private final class ScriptedConnection {
  let socket: FileDescriptor

  init(socket: consuming FileDescriptor) { self.socket = socket }

  /// Queues `lines` for the client to read, and with `thenClose`, the end of the connection.
  func answer(_ lines: [String], thenClose: Bool = false) throws {
    try socket.sendAll(lines.map { $0 + "\n" }.joined())
    if thenClose { _ = shutdown(socket.rawValue, Int32(SHUT_WR)) }
  }

  /// What the client has sent so far.
  func received() throws -> String {
    var bytes = [UInt8](repeating: 0, count: 4096)
    let count = try bytes.withUnsafeMutableBytes { buffer in try socket.receive(into: buffer) } ?? 0
    return String(decoding: bytes[0..<count], as: UTF8.self)
  }
}

@Suite("orientctl's session against a scripted orientd, in the test process")
struct SessionTests {
  /// A session on a connection to `server`, and the server's end of it.
  private func session(_ server: ScriptedServer) throws -> (Session, ScriptedConnection) {
    let connection = try LineConnection(path: server.path)
    connection.replyTimeout = .seconds(10)
    return (Session(connection: connection, socket: server.path), try server.accept())
  }

  @Test("A control command skips the events before its reply and succeeds on ok")
  func controlSucceeds() throws {
    let (session, server) = try session(try ScriptedServer())
    try server.answer(["lock normal", "orientation normal", "ok"])
    #expect(session.control("lock") == 0)
    #expect(try server.received() == "lock\n")
  }

  @Test("ok with a not-saved warning still succeeds")
  func notSavedSucceeds() throws {
    let (session, server) = try session(try ScriptedServer())
    try server.answer(["lock off", "ok not-saved disk full"])
    #expect(session.control("unlock") == 0)
  }

  @Test("permission-denied exits 77, too-many-clients 69, another error 1")
  func refusals() throws {
    for (reply, status) in [
      ("error permission-denied control needs root", ExitCode.noPermission.rawValue),
      ("error too-many-clients the server is full", ExitCode.unavailable.rawValue),
      ("error not-allowed bottom-up is not allowed", 1),
    ] {
      let (session, server) = try session(try ScriptedServer())
      try server.answer([reply])
      #expect(session.control("lock bottom-up") == status, "\(reply)")
    }
  }

  @Test("A refusal sent before the server closes is the reason the command failed")
  func refusedThenClosed() throws {
    let (session, server) = try session(try ScriptedServer())
    try server.answer(["error too-many-clients 4 clients at most"], thenClose: true)
    #expect(session.control("unlock") == ExitCode.unavailable.rawValue)
  }

  @Test("get collects the state up to ok, a later line of a field replacing an earlier one")
  func stateIsCollected() throws {
    let (session, server) = try session(try ScriptedServer())
    try server.answer([
      "sensor online", "device normal", "orientation normal", "device left-up", "orientation left-up",
      "lock off", "allowed normal,left-up", "mode laptop", "ok",
    ])
    let snapshot = try #require(session.state())
    #expect(try server.received() == "get\n")
    #expect(snapshot.orientation == .leftUp)
    #expect(snapshot.mode == .laptop)
    #expect(snapshot.value(of: "allowed", json: true) == #"["normal","left-up"]"# + "\n")
  }

  @Test("get that the server closes before its ok yields nothing")
  func stateLost() throws {
    let (session, server) = try session(try ScriptedServer())
    try server.answer(["sensor online", "device normal"], thenClose: true)
    #expect(session.state() == nil)
  }
}
