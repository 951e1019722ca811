import Foundation
import Testing

/// `orientd --check-config`, which `systemctl reload` runs before it signals orientd: the
/// checks a start makes before it listens, and nothing else.
@Suite("orientd --check-config", .scratch)
struct CheckConfigTests {
  /// Runs `orientd --check-config` with `arguments`, with a socket and a state file in the
  /// scratch directory that it must leave alone.
  func check(_ arguments: [String]) throws -> (status: Int32, stdout: String, stderr: String) {
    let scratch = try Scratch.current()
    let socket = scratch.path("orientd.sock")
    let state = scratch.path("state")
    let result = try runToCompletion(
      [TestPaths.orientd, "--check-config", "--socket", socket, "--state", state] + arguments)
    #expect(!FileManager.default.fileExists(atPath: socket), "a check listens on nothing")
    #expect(!FileManager.default.fileExists(atPath: state), "a check saves nothing")
    return result
  }

  func config(_ text: String) throws -> String {
    let path = try Scratch.current().path("orientd.conf")
    try writeConfigFile(text, to: path)
    return path
  }

  @Test("A valid file passes with exit 0 and says which file it read")
  func validFile() throws {
    let path = try config("# mine\nthreshold = 0.7\nallowed = normal, left-up\n")
    let result = try check(["--config", path])
    #expect(result.status == 0, "\(result.stderr)")
    #expect(result.stdout == "orientd: configuration OK: \(path) is valid\n")
  }

  @Test("A missing default file passes: the defaults apply, as they would at start")
  func missingDefault() throws {
    let path = try Scratch.current().path("absent.conf")
    let result = try check(["--default-config", path, "--dbus", "system"])
    #expect(result.status == 0, "\(result.stderr)")
    #expect(result.stdout == "orientd: configuration OK: \(path) is absent, so the defaults apply\n")
  }

  @Test(
    "A mistake in the file exits 78 naming file:line, as a start would",
    arguments: [
      ("threshold = 0.9\ntreshold = 0.5\n", ":2: unknown key 'treshold' (did you mean 'threshold'?)"),
      ("threshold = 0.3\nhysteresis = 0.4\n", "hysteresis"),
      ("control-group = no-such-group-here\n", ":1: control-group: no group named 'no-such-group-here'"),
      ("hook = echo shown\u{0}; echo hidden\n", ":1: the line holds a NUL byte"),
    ])
  func mistakeInFile(text: String, message: String) throws {
    let path = try config(text)
    let result = try check(["--config", path])
    #expect(result.status == 78, "\(result.stdout)\(result.stderr)")
    #expect(result.stderr.hasPrefix("orientd: \(path)"), "\(result.stderr)")
    #expect(result.stderr.contains(message), "\(result.stderr)")
    #expect(result.stdout.isEmpty)
  }

  @Test("A config file another user owns or may write is refused: its hooks would run as root")
  func untrustedFile() throws {
    let path = try config("hook = echo mine\n")
    try #require(chmod(path, 0o666) == 0)
    let writable = try check(["--config", path])
    #expect(writable.status == 78, "\(writable.stderr)")
    #expect(
      writable.stderr == "orientd: refusing the config file \(path): mode 666 lets other users write it\n")
    try #require(chmod(path, 0o644) == 0 && chown(path, Unprivileged.uid, Unprivileged.gid) == 0)
    let owned = try check(["--config", path])
    #expect(owned.status == 78, "\(owned.stderr)")
    #expect(owned.stderr.contains("it is owned by uid \(Unprivileged.uid), not by root"), "\(owned.stderr)")
    // The premise: the same file of root's own is read.
    try #require(chown(path, 0, 0) == 0)
    #expect(try check(["--config", path]).status == 0)
  }

  @Test("A named file that is missing exits 78; a mistake on the command line exits 64")
  func missingNamedFileAndBadOption() throws {
    let missing = try check(["--config", try Scratch.current().path("absent.conf")])
    #expect(missing.status == 78, "\(missing.stderr)")
    #expect(missing.stderr.contains("cannot read config file"), "\(missing.stderr)")
    // What only a start used to find: a state path that names no file.
    let state = try check(["--state", try Scratch.current().path("directory/")])
    #expect(state.status == 78, "\(state.stderr)")
    #expect(state.stderr.contains("directory/: the path names no file"), "\(state.stderr)")
    let option = try check(["--treshold", "0.5"])
    #expect(option.status == 64, "\(option.stderr)")
    #expect(option.stderr.contains("did you mean --threshold?"), "\(option.stderr)")
  }
}
