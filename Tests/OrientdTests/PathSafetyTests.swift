import Foundation
import Testing

/// A hostile local user against orientd's own paths: the state file, its temporary files and
/// the socket, in directories that user can write; and special files where orientd expects
/// a small regular file.
@Suite("State, socket and config paths a hostile user prepared", .scratch)
struct PathSafetyTests {
  /// A state file as orientd writes it, locked where the allowed set forbids: loading it
  /// makes orientd unlock and save at once, at start-up.
  static let stateThatSavesAtStart = "# orientd-state 1\nlock left-up\nallowed normal\n"

  /// Root-owned files an attacker points links at, with what they must still hold.
  struct Targets {
    let paths: [String: String]

    init(_ scratch: Scratch, names: [String]) throws {
      var paths: [String: String] = [:]
      for name in names {
        let path = scratch.path(name)
        let text = name == "precious-state" ? PathSafetyTests.stateThatSavesAtStart : "\(name), root's only\n"
        try text.write(toFile: path, atomically: false, encoding: .utf8)
        chmod(path, 0o644)
        paths[path] = text
      }
      self.paths = paths
    }

    /// Checks that every target still holds exactly what it held, as a regular file.
    func expectUntouched(sourceLocation: SourceLocation = #_sourceLocation) {
      for (path, text) in paths {
        var info = stat()
        #expect(
          lstat(path, &info) == 0 && info.st_mode & S_IFMT == S_IFREG, "\(path)",
          sourceLocation: sourceLocation)
        #expect(fileText(path) == text, "\(path) was changed", sourceLocation: sourceLocation)
      }
    }
  }

  /// Runs a shell command as nobody and requires it to succeed.
  static func asNobody(_ script: String, _ arguments: String...) throws {
    let result = try runToCompletion(try Unprivileged.command(["/bin/sh", "-c", script, "sh"] + arguments))
    try #require(result.status == 0, "as nobody: \(script): \(result.stderr)")
  }

  /// A directory in the scratch directory that nobody owns, as one they made would be.
  static func nobodysDirectory(_ scratch: Scratch) throws -> String {
    Unprivileged.openScratch(scratch)
    let directory = try scratch.makeDirectory("nobody")
    try #require(chown(directory, Unprivileged.uid, Unprivileged.gid) == 0)
    return directory
  }

  /// Starts orientd and waits until it either serves or exits; a running one is stopped.
  /// Returns the exit status (nil if it served) and what it wrote to stderr.
  static func startOrRefusal(_ arguments: [String]) throws -> (status: Int32?, stderr: String) {
    let process = try TestProcess([TestPaths.orientd] + arguments)
    waitUntil { !process.isRunning || process.stderr.contains("listening on") }
    guard process.isRunning else { return (process.waitForExit(), process.stderr) }
    process.signal(SIGTERM)
    process.waitForExit()
    return (nil, process.stderr)
  }

  @Test("A state directory another user owns is refused with exit 78, its planted links left alone")
  func stateInAnotherUsersDirectory() throws {
    let scratch = try Scratch.current()
    let targets = try Targets(scratch, names: ["precious", "precious-state"])
    let directory = try Self.nobodysDirectory(scratch)
    // The links the old code followed: the state file (read at start-up, and it asks for a
    // save) and its fixed temporary name (truncated and written through).
    try Self.asNobody(
      "ln -s \"$1/precious-state\" \"$2/state\" && ln -s \"$1/precious\" \"$2/state.tmp\"", scratch.path,
      directory)

    let result = try Self.startOrRefusal(["--demo", "--state", directory + "/state"])
    #expect(result.status == 78, "\(result.stderr)")
    #expect(result.stderr.contains("state file \(directory)/state"), "\(result.stderr)")
    #expect(result.stderr.contains("\(directory) is owned by uid \(Unprivileged.uid)"), "\(result.stderr)")
    targets.expectUntouched()
  }

  @Test(
    "A socket directory another user owns is refused with exit 78, a link planted there left alone",
    arguments: [false, true])
  func socketInAnotherUsersDirectory(planted: Bool) throws {
    let scratch = try Scratch.current()
    let targets = try Targets(scratch, names: ["precious"])
    let directory = try Self.nobodysDirectory(scratch)
    let socket = directory + "/orientd.sock"
    if planted { try Self.asNobody("ln -s \"$1/precious\" \"$2\"", scratch.path, socket) }

    let result = try Self.startOrRefusal(["--demo", "--socket", socket])
    #expect(result.status == 78, "\(result.stderr)")
    #expect(result.stderr.contains("socket \(socket)"), "\(result.stderr)")
    #expect(result.stderr.contains("\(directory) is owned by uid \(Unprivileged.uid)"), "\(result.stderr)")
    var info = stat()
    #expect(planted || lstat(socket, &info) != 0, "no socket that another user could replace")
    targets.expectUntouched()
  }

  @Test("A directory above the state directory that others can write without the sticky bit is refused")
  func writableAncestor() throws {
    let scratch = try Scratch.current()
    let shared = try scratch.makeDirectory("shared")
    chmod(shared, 0o777)
    let result = try Self.startOrRefusal(["--demo", "--state", shared + "/orientd/state"])
    #expect(result.status == 78, "\(result.stderr)")
    #expect(result.stderr.contains("\(shared), on the way to \(shared)/orientd,"), "\(result.stderr)")
    #expect(result.stderr.contains("no sticky bit"), "\(result.stderr)")
    #expect(!FileManager.default.fileExists(atPath: shared + "/orientd"), "nothing is created under it")
  }

  @Test("In a sticky shared directory, links nobody planted at the state's names are never followed")
  func stickySharedDirectory() throws {
    let scratch = try Scratch.current()
    let targets = try Targets(scratch, names: ["precious", "precious-state"])
    Unprivileged.openScratch(scratch)
    let shared = scratch.path("tmp")
    try #require(mkdir(shared, 0o755) == 0 && chmod(shared, 0o1777) == 0)
    let state = shared + "/state"
    // Every name orientd used or might use next to the state file.
    try Self.asNobody(
      """
      ln -s "$1/precious-state" "$2/state" &&
      for name in state.tmp .state.tmp state.new state~ .state state.lock; do
        ln -s "$1/precious" "$2/$name" || exit 1
      done
      """, scratch.path, shared)

    let daemon = try ServedDaemon(extra: ["--state", state])
    #expect(
      daemon.process.stderr.contains("ignoring the state file: \(state) is a symbolic link"),
      "\(daemon.process.stderr)")
    #expect(
      completeLines(try daemon.orientctl("get").stdout).contains("lock off"), "the link's state is not used")
    #expect(try daemon.orientctl("lock", "left-up").status == 0)
    #expect(waitForFile(state, toContain: "\nlock left-up\n"), "\(fileText(state))")
    var info = stat()
    #expect(lstat(state, &info) == 0 && info.st_mode & S_IFMT == S_IFREG && info.st_uid == 0)
    let names = try FileManager.default.contentsOfDirectory(atPath: shared).sorted()
    #expect(names == [".state", ".state.tmp", "state", "state.lock", "state.new", "state.tmp", "state~"])
    #expect(daemon.stop() == 0)
    targets.expectUntouched()
  }

  @Test("Temporary state files a crash left behind are removed at the next start, only orientd's own")
  func leftoverTemporaryFiles() throws {
    let directory = try Scratch.current().makeDirectory()
    let state = directory + "/state"
    for name in [".state.tmp-crash", ".state.tmp-others"] {
      try "half a state".write(toFile: directory + "/" + name, atomically: false, encoding: .utf8)
    }
    try #require(chown(directory + "/.state.tmp-others", Unprivileged.uid, Unprivileged.gid) == 0)
    let daemon = try ServedDaemon(extra: ["--state", state], directory: directory)
    #expect(!FileManager.default.fileExists(atPath: directory + "/.state.tmp-crash"))
    #expect(FileManager.default.fileExists(atPath: directory + "/.state.tmp-others"))
    #expect(daemon.stop() == 0)
  }

  @Test(
    "A state path that is a FIFO or a device is a warning and the defaults, at once",
    arguments: ["fifo", "/dev/zero"])
  func specialStateFile(kind: String) throws {
    let scratch = try Scratch.current()
    let state = kind == "fifo" ? scratch.path("state-fifo") : kind
    if kind == "fifo" { try #require(mkfifo(state, 0o644) == 0) }
    let daemon = try ServedDaemon(extra: ["--state", state])
    let kindName = kind == "fifo" ? "a FIFO" : "a character device"
    #expect(
      daemon.process.stderr.contains("warning: ignoring the state file: \(state) is \(kindName)"),
      "\(daemon.process.stderr)")
    #expect(completeLines(try daemon.orientctl("get").stdout).contains("lock off"))
    if kind == "fifo" {
      // A save never replaces what is not a regular file (never tried on /dev/zero).
      #expect(try daemon.orientctl("lock", "left-up").status == 0)
      #expect(daemon.process.waitFor("cannot save the state to \(state)", inStderr: true))
      var info = stat()
      #expect(lstat(state, &info) == 0 && info.st_mode & S_IFMT == S_IFIFO, "the FIFO is still there")
      #expect(completeLines(try daemon.orientctl("get").stdout).contains("lock left-up"), "still serving")
    }
    #expect(daemon.stop() == 0)
  }

  @Test(
    "A config file that is a FIFO or /dev/zero fails with exit 78 at once, naming it",
    arguments: ["fifo", "/dev/zero"])
  func specialConfigFile(kind: String) throws {
    let scratch = try Scratch.current()
    let config = kind == "fifo" ? scratch.path("config-fifo") : kind
    if kind == "fifo" { try #require(mkfifo(config, 0o644) == 0) }
    let result = try Self.startOrRefusal(["--config", config, "--demo"])
    #expect(result.status == 78, "\(result.stderr)")
    #expect(result.stderr.contains("\(config) is a "), "\(result.stderr)")
  }

  @Test("A config file over 1 MiB is refused with exit 78")
  func hugeConfigFile() throws {
    let config = try Scratch.current().path("huge.conf")
    try writeConfigFile(String(repeating: "# padding\n", count: 110_000), to: config)
    let result = try Self.startOrRefusal(["--config", config, "--demo"])
    #expect(result.status == 78, "\(result.stderr)")
    #expect(result.stderr.contains("\(config) is larger than 1048576 bytes"), "\(result.stderr)")
  }

  @Test(
    "The socket file has the --socket-mode asked for as soon as orientd listens, whatever the umask",
    arguments: [0o600, 0o666, 0o660])
  func socketMode(mode: Int) throws {
    let directory = try Scratch.current().makeDirectory()
    let socket = directory + "/new/s"
    // A strict umask, as a careful administrator's shell has: the socket and the created
    // directory still get exactly their modes.
    let daemon = try ServedDaemon(
      extra: ["--socket", socket, "--socket-mode", String(mode, radix: 8)], directory: directory,
      launcher: ["/bin/sh", "-c", "umask 077 && exec \"$@\"", "sh"])
    var info = stat()
    #expect(lstat(socket, &info) == 0 && info.st_mode & S_IFMT == S_IFSOCK)
    #expect(Int(info.st_mode & 0o7777) == mode, "mode \(String(info.st_mode & 0o7777, radix: 8))")
    #expect(lstat(directory + "/new", &info) == 0 && info.st_mode & 0o7777 == 0o755)
    #expect(daemon.stop() == 0)
    #expect(!FileManager.default.fileExists(atPath: socket), "removed at exit")
  }
}
