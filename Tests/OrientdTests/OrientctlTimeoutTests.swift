import Foundation
import Testing

/// A Unix socket that takes connections into its backlog and never answers: a hung or
/// stopped orientd, or another program squatting on the path.
final class SilentListener {
  let path: String
  private let descriptor: Int32

  init(path: String) throws {
    self.path = path
    descriptor = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue | SOCK_CLOEXEC.rawValue), 0)
    guard descriptor >= 0 else { throw POSIXError(.EIO) }
    let bound = withUnixAddress(path) { bind(descriptor, $0, $1) }
    guard bound == 0, listen(descriptor, 16) == 0 else {
      close(descriptor)
      throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO)
    }
  }

  deinit { close(descriptor) }
}

@Suite("orientctl gives up on an orientd that does not answer", .scratch)
struct OrientctlTimeoutTests {
  @Test(
    "Every query and control command exits 69 after --timeout, saying orientd did not answer",
    arguments: [
      ["get"], ["get", "orientation"], ["lock"], ["unlock"], ["rotate", "cw"], ["allow", "normal"],
      ["doctor"],
    ])
  func silentSocket(command: [String]) throws {
    let listener = try SilentListener(path: Scratch.current().path("silent.sock"))
    let result = try runToCompletion(
      [TestPaths.orientctl, "--socket", listener.path, "--timeout", "0.3"] + command)
    #expect(result.status == 69)
    #expect(result.stderr.contains("did not answer within 0.300 s"), "\(result.stderr)")
    #expect(result.stderr.contains(listener.path))
  }

  @Test(
    "Silent at the system service's socket, as when systemd holds it for a service that fails to start: the error says where to look"
  )
  func silentServiceSocket() throws {
    let system = try Scratch.current().makeDirectory("system")
    let listener = try SilentListener(path: system + "/orientd.sock")
    var environment = try Scratch.current().environment
    environment["ORIENTD_SOCKET"] = nil
    let result = try runToCompletion(
      try UserDefaultsTests.withSystemDirectory(system, [TestPaths.orientctl, "--timeout", "0.3", "get"]),
      environment: environment)
    #expect(result.status == 69)
    #expect(
      result.stderr
        == "orientctl: orientd at /run/orientd/orientd.sock did not answer within 0.300 s (--timeout); if the"
        + " system service should be serving, 'systemctl status orientd.socket orientd' and 'journalctl -u"
        + " orientd' say why it is not\n", "\(result.stderr)")
    // A socket named with --socket is not the service's: no word of systemd.
    let named = try runToCompletion([
      TestPaths.orientctl, "--socket", listener.path, "--timeout", "0.3", "get",
    ])
    #expect(named.status == 69)
    #expect(!named.stderr.contains("systemctl"), "\(named.stderr)")
  }

  @Test("Without --timeout, get gives up after the default of 5 s")
  func defaultTimeout() throws {
    let listener = try SilentListener(path: Scratch.current().path("silent.sock"))
    let result = try runToCompletion([TestPaths.orientctl, "--socket", listener.path, "get"])
    #expect(result.status == 69)
    #expect(result.stderr.contains("did not answer within 5.000 s"), "\(result.stderr)")
  }

  @Test("A bad --timeout exits 64 naming the option", arguments: ["0", "-1", "soon", "", "0.0001"])
  func badTimeout(value: String) throws {
    let socket = try Scratch.current().path("nothing.sock")
    let result = try runToCompletion([TestPaths.orientctl, "--socket", socket, "--timeout", value, "get"])
    #expect(result.status == 64)
    #expect(result.stderr.contains("--timeout"))
  }

  @Test("A daemon that answers is unaffected by a short --timeout")
  func answeringDaemon() throws {
    let daemon = try ServedDaemon()
    #expect(try daemon.orientctl("--timeout", "2", "get", "orientation").stdout == "normal\n")
    #expect(try daemon.orientctl("--timeout", "2", "lock", "left-up").status == 0)
    #expect(daemon.stop() == 0)
  }
}
