import Foundation
import Testing

/// orientd tried by a user who is not root, as the README's quick start does.
@Suite("Defaults for a user who is not root", .scratch)
struct UserDefaultsTests {
  /// A runtime directory of nobody's own, as logind makes /run/user/UID, and the environment
  /// of a session of nobody's without ORIENTD_SOCKET.
  static func nobodysSession() throws -> (runtime: String, environment: [String: String]) {
    let scratch = try Scratch.current()
    Unprivileged.openScratch(scratch)
    let runtime = try scratch.makeDirectory("runtime")
    try #require(chown(runtime, Unprivileged.uid, Unprivileged.gid) == 0 && chmod(runtime, 0o700) == 0)
    var environment = scratch.environment
    environment["ORIENTD_SOCKET"] = nil
    environment["XDG_RUNTIME_DIR"] = runtime
    return (runtime, environment)
  }

  @Test(
    "As a user, orientd --demo keeps its socket and state in $XDG_RUNTIME_DIR/orientd, says so, and orientctl finds it"
  )
  func socketAndStateInRuntimeDirectory() throws {
    let (runtime, environment) = try Self.nobodysSession()
    let config = try Scratch.current().emptyConfig()
    chmod(config, 0o644)
    let daemon = try TestProcess(
      try Unprivileged.command([TestPaths.orientd, "--demo", "--config", config]), environment: environment)
    let socket = runtime + "/orientd/orientd.sock"
    #expect(daemon.waitFor("listening on \(socket)", inStderr: true), "\(daemon.stderr)")
    #expect(
      daemon.stderr.contains("not running as root: the socket and the state file are in \(runtime)/orientd"),
      "\(daemon.stderr)")
    let get = try runToCompletion(
      try Unprivileged.command([TestPaths.orientctl, "get", "sensor"]), environment: environment)
    #expect(get.status == 0, "\(get.stderr)")
    #expect(get.stdout == "online\n")
    let lock = try runToCompletion(
      try Unprivileged.command([TestPaths.orientctl, "lock", "left-up"]), environment: environment)
    #expect(lock.status == 0, "\(lock.stderr)")
    #expect(fileText(runtime + "/orientd/state").contains("left-up"), "the state file is there")
    daemon.signal(SIGTERM)
    #expect(daemon.waitForExit() == 0, "\(daemon.stderr)")
  }

  /// `arguments` run in a mount namespace of their own whose /run is empty but for
  /// /run/orientd, which is `system` (a scratch directory): orientctl's system socket is then the
  /// test's, never the host's.
  static func withSystemDirectory(_ system: String, _ arguments: [String]) throws -> [String] {
    let unshare = try #require(TestPaths.which("unshare"), "unshare is missing (util-linux)")
    return [
      unshare, "--mount", "--propagation", "private", "/bin/sh", "-c",
      #"mount -t tmpfs none /run && mkdir /run/orientd && mount --bind "$0" /run/orientd && exec "$@""#,
      system,
    ] + arguments
  }

  @Test(
    "orientctl looks for a user's orientd and the system's at every try: monitor started first finds either, get names both"
  )
  func clientLooksInBothPlaces() throws {
    let (runtime, environment) = try Self.nobodysSession()
    let scratch = try Scratch.current()
    let config = try scratch.emptyConfig()
    chmod(config, 0o644)
    let system = try Unprivileged.openDirectory(in: scratch)
    let userSocket = runtime + "/orientd/orientd.sock"
    let systemSocket = "/run/orientd/orientd.sock"
    let monitor = try TestProcess(
      try Self.withSystemDirectory(system, try Unprivileged.command([TestPaths.orientctl, "monitor"])),
      environment: environment)
    #expect(
      monitor.waitFor(
        "waiting for orientd at \(userSocket) (No such file or directory) or at \(systemSocket)",
        inStderr: true),
      "\(monitor.stderr)")

    // The user's own orientd, started second, is found.
    let demo = try TestProcess(
      try Unprivileged.command([TestPaths.orientd, "--demo", "--config", config]), environment: environment)
    #expect(monitor.waitFor("sensor online"), "\(monitor.stderr)\(demo.stderr)")
    demo.signal(SIGTERM)
    #expect(demo.waitForExit() == 0, "\(demo.stderr)")
    #expect(monitor.waitFor("closed the connection; reconnecting", inStderr: true), "\(monitor.stderr)")

    // Then the system's, root's orientd: the same monitor finds it at /run/orientd.
    let service = try TestProcess([
      TestPaths.orientd, "--demo", "--socket", system + "/orientd.sock",
      "--state", scratch.path("system.state"), "--config", config,
    ])
    #expect(
      monitor.waitFor("reconnected to orientd at \(systemSocket)", inStderr: true),
      "\(monitor.stderr)\(service.stderr)")
    service.signal(SIGTERM)
    #expect(service.waitForExit() == 0, "\(service.stderr)")
    monitor.signal(SIGTERM)
    #expect(monitor.waitForExit() != nil)

    // With neither there, a query names both places, and where the service's reason would be.
    let get = try runToCompletion(
      try Self.withSystemDirectory(system, try Unprivileged.command([TestPaths.orientctl, "get"])),
      environment: environment)
    #expect(get.status == 69, "\(get.stderr)")
    #expect(
      get.stderr.hasPrefix(
        "orientctl: cannot reach orientd at \(userSocket) (No such file or directory) or at \(systemSocket) ("
      ),
      "\(get.stderr)")
    #expect(get.stderr.contains("'systemctl status orientd.socket orientd'"), "\(get.stderr)")
  }

  @Test(
    "A runtime directory that refuses this user (another user's, after su) does not hide the system's orientd"
  )
  func refusedRuntimeDirectory() throws {
    var (_, environment) = try Self.nobodysSession()
    let scratch = try Scratch.current()
    // root's own 0700 directory: nobody gets EACCES there, as after `su` from another user.
    let foreign = try scratch.makeDirectory("foreign")
    try #require(chmod(foreign, 0o700) == 0)
    environment["XDG_RUNTIME_DIR"] = foreign
    let system = try Unprivileged.openDirectory(in: scratch)
    let service = try TestProcess([
      TestPaths.orientd, "--demo", "--socket", system + "/orientd.sock", "--state",
      scratch.path("system.state"),
      "--config", try scratch.emptyConfig(),
    ])
    #expect(service.waitFor("listening on", inStderr: true), "\(service.stderr)")
    let get = try runToCompletion(
      try Self.withSystemDirectory(system, try Unprivileged.command([TestPaths.orientctl, "get", "sensor"])),
      environment: environment)
    #expect(get.status == 0, "\(get.stderr)")
    #expect(get.stdout == "online\n")
    service.signal(SIGTERM)
    #expect(service.waitForExit() == 0, "\(service.stderr)")
  }

  @Test(
    "root's orientctl, given a user's XDG_RUNTIME_DIR (sudo -E), does not use the socket that user serves")
  func rootIgnoresUsersRuntimeDirectory() throws {
    let (runtime, environment) = try Self.nobodysSession()
    let config = try Scratch.current().emptyConfig()
    chmod(config, 0o644)
    let demo = try TestProcess(
      try Unprivileged.command([TestPaths.orientd, "--demo", "--config", config]), environment: environment)
    #expect(demo.waitFor("listening on \(runtime)/orientd/orientd.sock", inStderr: true), "\(demo.stderr)")
    // The premise: the user's own orientctl reaches it there.
    let users = try runToCompletion(
      try Unprivileged.command([TestPaths.orientctl, "get", "sensor"]), environment: environment)
    #expect(users.status == 0, "\(users.stderr)")
    // root, with the user's environment and no system service (an empty /run/orientd).
    let empty = try Unprivileged.openDirectory(in: try Scratch.current())
    let root = try runToCompletion(
      try Self.withSystemDirectory(empty, [TestPaths.orientctl, "lock", "left-up"]), environment: environment)
    #expect(root.status == 69, "\(root.stdout)\(root.stderr)")
    #expect(
      root.stderr.hasPrefix("orientctl: cannot reach orientd at /run/orientd/orientd.sock ("),
      "\(root.stderr)")
    #expect(!fileText(runtime + "/orientd/state").contains("left-up"), "the user's orientd was not locked")
    demo.signal(SIGTERM)
    #expect(demo.waitForExit() == 0, "\(demo.stderr)")
  }

  @Test("--help says where the socket and state go for other users than root")
  func helpSaysSo() throws {
    let help = try runToCompletion([TestPaths.orientd, "--help"])
    #expect(help.stdout.contains("$XDG_RUNTIME_DIR/orientd/orientd.sock"), "\(help.stdout)")
    #expect(help.stdout.contains("$XDG_RUNTIME_DIR/orientd/state"), "\(help.stdout)")
    let client = try runToCompletion([TestPaths.orientctl, "--help"])
    #expect(client.stdout.contains("$XDG_RUNTIME_DIR/orientd/orientd.sock"), "\(client.stdout)")
  }

  @Test(
    "A user without XDG_RUNTIME_DIR who cannot create the state file is told to give --state and --socket")
  func hintWithoutRuntimeDirectory() throws {
    var (_, environment) = try Self.nobodysSession()
    environment["XDG_RUNTIME_DIR"] = nil
    let config = try Scratch.current().emptyConfig()
    chmod(config, 0o644)
    let result = try runToCompletion(
      try Unprivileged.command([TestPaths.orientd, "--demo", "--config", config]), environment: environment)
    #expect(result.status == 73, "\(result.stderr)")
    #expect(result.stderr.contains("--state PATH and --socket PATH"), "\(result.stderr)")
  }
}
