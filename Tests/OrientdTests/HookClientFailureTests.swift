import Foundation
import Testing

/// `orientctl hook` as the user unit runs it: a command line it cannot run is a failure the
/// unit sees, at once, instead of a warning on every change for ever.
@Suite("orientctl hook fails when its command cannot run", .scratch)
struct HookClientFailureTests {
  @Test(
    "A mistyped option before the command exits 64 naming it, and is not run as the command",
    arguments: [
      ["--timout", "5", "/bin/true"], ["-t", "5", "/bin/true"], ["--timeout=5", "--verbose", "/bin/true"],
    ])
  func unknownOption(arguments: [String]) throws {
    // Nothing listens there: a hook that started would wait for orientd instead of exiting.
    let socket = try Scratch.current().path("nothing.sock")
    let result = try runToCompletion(
      [TestPaths.orientctl, "--socket", socket, "hook"] + arguments, timeout: 10)
    #expect(result.status == 64, "\(result.stderr)")
    let option = try #require(arguments.first { $0.hasPrefix("-") && !$0.hasPrefix("--timeout=") })
    #expect(result.stderr.contains("unknown option '\(option)'"), "\(result.stderr)")
    #expect(result.stderr.contains("Try 'orientctl --help'."))
  }

  @Test(
    "An orientd that cannot start (a config mistake) is logged once, and the hook waits 30 s, not 1 s, before the next try"
  )
  func orientdCannotStart() throws {
    let socat = try #require(TestPaths.which("socat"), "socat is missing")
    let directory = try Scratch.current().makeDirectory()
    let socket = directory + "/activated.sock"
    let log = directory + "/connections.log"
    // What a socket-activated orientd with a bad config does: one line, then gone. Each
    // connection is counted, so the retry's pace shows.
    let server = try TestProcess([
      socat, "UNIX-LISTEN:\(socket),fork",
      "SYSTEM:date +%s.%N >> \(log); echo 'error bad-config orientd cannot start: its configuration has a mistake'",
    ])
    #expect(waitUntil { FileManager.default.fileExists(atPath: socket) }, "\(server.stderr)")
    let client = try TestProcess([TestPaths.orientctl, "hook", "--socket", socket, "--", "/bin/true"])
    #expect(
      client.waitFor(
        "orientd cannot start: its configuration has a mistake; trying again every 30 s", inStderr: true),
      "\(client.stderr)")
    // The second try comes 30 s after the first (a timer: under load later, never sooner),
    // and says nothing new.
    #expect(waitUntil(timeout: 90) { fileText(log).split(separator: "\n").count >= 2 }, "\(client.stderr)")
    let times = fileText(log).split(separator: "\n").compactMap { Double($0) }
    try #require(times.count >= 2, "\(fileText(log))")
    #expect(times[1] - times[0] >= 29.9, "\(times)")
    #expect(occurrences(of: "cannot start", in: client.stderr) == 1, "\(client.stderr)")
    client.signal(SIGTERM)
    #expect(client.waitForExit() == 0)
    server.signal(SIGTERM)
    _ = server.waitForExit()
  }

  @Test("'--' ends hook's options, and hook's own --timeout and --socket come before the command")
  func optionsBeforeCommand() throws {
    let directory = try Scratch.current().makeDirectory()
    let log = directory + "/ran.log"
    let daemon = try ServedDaemon(holding: (1, 0, 0), directory: directory)
    let client = try TestProcess([
      TestPaths.orientctl, "hook", "--timeout=2", "--socket", daemon.socket, "--", "/bin/sh", "-c",
      "echo \"$ORIENTD_ORIENTATION\" >> \(log)",
    ])
    #expect(waitForFile(log, toContain: "left-up"), "\(client.stderr)")
    client.signal(SIGTERM)
    #expect(client.waitForExit() == 0)
    #expect(daemon.stop() == 0)
  }

  @Test(
    "A program that is missing or not executable exits 127 at once, naming it",
    arguments: ["no-such-program-for-orientd", "/missing", "not-executable", "under-a-file"])
  func unrunnableProgram(name: String) throws {
    let directory = try Scratch.current().makeDirectory()
    var program = name == "/missing" ? directory + "/missing" : name
    if name == "not-executable" || name == "under-a-file" {
      program = directory + "/not-executable"
      try "#!/bin/sh\nexit 0\n".write(toFile: program, atomically: true, encoding: .utf8)
      chmod(program, 0o644)
    }
    // Not "no such file": the error says why the path cannot be examined.
    if name == "under-a-file" { program += "/program" }
    // orientd is there: the hook must not wait for a change to find out.
    let daemon = try ServedDaemon(directory: directory)
    let result = try runToCompletion(
      [TestPaths.orientctl, "--socket", daemon.socket, "hook", program, "argument"], timeout: 10)
    #expect(result.status == 127, "\(result.stderr)")
    #expect(result.stderr.contains(program), "\(result.stderr)")
    if name == "under-a-file" {
      #expect(result.stderr.contains("\(program): Not a directory"), "\(result.stderr)")
    }
    #expect(daemon.stop() == 0)
  }

  @Test("A program that disappears while orientctl hook runs ends it with 127 on the next change")
  func programRemovedLater() throws {
    let directory = try Scratch.current().makeDirectory()
    let log = directory + "/ran.log"
    let program = directory + "/rotate"
    try "#!/bin/sh\necho \"$ORIENTD_ORIENTATION\" >> \(log)\n".write(
      toFile: program, atomically: true, encoding: .utf8)
    chmod(program, 0o755)
    let daemon = try ServedDaemon(directory: directory)
    let client = try TestProcess([TestPaths.orientctl, "--socket", daemon.socket, "hook", program])
    #expect(waitForFile(log, toContain: "normal"), "\(client.stderr)")
    try FileManager.default.removeItem(atPath: program)
    #expect(try daemon.orientctl("lock", "left-up").status == 0)
    #expect(client.waitForExit(timeout: 10) == 127, "\(client.stderr)")
    #expect(client.stderr.contains("cannot be started"), "\(client.stderr)")
    #expect(daemon.stop() == 0)
  }

  @Test(
    "The user unit's own command line exits 127 when its hook is missing, and the unit does not restart it")
  func userUnitSeesTheFailure() throws {
    let unit = try String(
      contentsOfFile: TestPaths.packageRoot + "/systemd/user/orientd-hook.service.in", encoding: .utf8)
    let missing = try Scratch.current().path("no-hooks")
    let execStart = try #require(
      unit.split(separator: "\n").first { $0.hasPrefix("ExecStart=") }?.dropFirst("ExecStart=".count))
    let arguments = execStart.replacingOccurrences(of: "@BINDIR@", with: TestPaths.buildDirectory.path)
      .replacingOccurrences(of: "@HOOKSDIR@", with: missing).split(separator: " ").map(String.init)
    var environment = try Scratch.current().environment
    environment["ORIENTD_SOCKET"] = try Scratch.current().path("nothing.sock")
    let result = try runToCompletion(arguments, environment: environment, timeout: 10)
    #expect(result.status == 127, "\(result.stderr)")
    #expect(unit.contains("Restart=on-failure"))
    // Restarting cannot bring back a program that is not there, nor fix a command line.
    let prevented = unit.split(separator: "\n").first { $0.hasPrefix("RestartPreventExitStatus=") }
    let statuses = prevented?.dropFirst("RestartPreventExitStatus=".count).split(separator: " ") ?? []
    #expect(
      statuses.contains("127") && statuses.contains("64"), "\(prevented ?? "no RestartPreventExitStatus")")
  }
}
