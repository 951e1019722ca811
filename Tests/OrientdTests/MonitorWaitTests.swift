import Foundation
import Testing

/// `orientctl monitor` started before orientd, and `orientctl hook --oneshot`.
@Suite("monitor waits for orientd; hook --oneshot", .scratch)
struct MonitorWaitTests {
  @Test("monitor started before orientd says once that it waits, then prints the state once orientd comes")
  func monitorWaitsForOrientd() throws {
    let directory = try Scratch.current().makeDirectory("daemon")
    let socket = directory + "/s"
    let monitor = try TestProcess([TestPaths.orientctl, "--socket", socket, "monitor"])
    #expect(monitor.waitFor("waiting for orientd at \(socket)", inStderr: true), "\(monitor.stderr)")
    #expect(monitor.isRunning, "monitor gave up: \(monitor.stderr)")
    let daemon = try ServedDaemon(holding: (1, 0, 0), directory: directory)
    #expect(
      monitor.waitForLines(greetingLines).prefix(3) == [
        "sensor online", "device left-up", "orientation left-up",
      ])
    #expect(occurrences(of: "waiting for orientd", in: monitor.stderr) == 1, "\(monitor.stderr)")
    monitor.signal(SIGTERM)
    #expect(monitor.waitForExit() != nil)
    #expect(daemon.stop() == 0)
  }

  @Test("monitor told that orientd cannot start says so and waits 30 s to try again, rather than exit")
  func monitorWaitsOutAConfigMistake() throws {
    let socat = try #require(TestPaths.which("socat"), "socat is missing")
    let socket = try Scratch.current().makeDirectory("daemon") + "/s"
    // What a socket-activated orientd with a bad config does: one line, then gone, reading
    // nothing. `-U` (only from the command to the client): socat that also passed the client's
    // request on found the echo gone (EPIPE) and could end the connection before the line.
    let server = try TestProcess([
      socat, "-U", "UNIX-LISTEN:\(socket),fork",
      "SYSTEM:echo 'error bad-config orientd cannot start: its configuration has a mistake'",
    ])
    #expect(waitUntil { FileManager.default.fileExists(atPath: socket) }, "\(server.stderr)")
    let monitor = try TestProcess([TestPaths.orientctl, "--socket", socket, "monitor"])
    #expect(
      monitor.waitFor(
        "orientctl: orientd cannot start: its configuration has a mistake\norientctl: trying again every 30 s",
        inStderr: true), "\(monitor.stderr)")
    #expect(monitor.isRunning, "\(monitor.stderr)")
    monitor.signal(SIGTERM)
    #expect(monitor.waitForExit() != nil)
    // With --no-reconnect it ends there, 69.
    let once = try runToCompletion([TestPaths.orientctl, "--socket", socket, "monitor", "--no-reconnect"])
    #expect(once.status == 69, "\(once.stderr)")
    #expect(once.stderr == "orientctl: orientd cannot start: its configuration has a mistake\n")
    server.signal(SIGTERM)
    _ = server.waitForExit()
  }

  @Test(
    "monitor --no-reconnect (and the old --once) exits 69 when orientd is not there or goes",
    arguments: ["--no-reconnect", "--once"])
  func noReconnect(option: String) throws {
    let directory = try Scratch.current().makeDirectory("daemon")
    let socket = directory + "/s"
    let absent = try runToCompletion([TestPaths.orientctl, "--socket", socket, "monitor", option])
    #expect(absent.status == 69, "\(absent.stderr)")
    #expect(absent.stderr.contains(socket))
    let daemon = try ServedDaemon(directory: directory)
    let monitor = try TestProcess([TestPaths.orientctl, "--socket", socket, "monitor", "--json", option])
    #expect(monitor.waitForLines(greetingLines).count == greetingLines)
    #expect(daemon.stop() == 0)
    #expect(monitor.waitForExit() == 69)
    #expect(monitor.stderr.contains("closed the connection"), "\(monitor.stderr)")
  }

  @Test("hook --oneshot runs the command once for the current orientation and exits with its status")
  func hookOneshot() throws {
    let daemon = try ServedDaemon(holding: (1, 0, 0))
    let scratch = try Scratch.current()
    let log = scratch.path("oneshot.log")
    let result = try runToCompletion([
      TestPaths.orientctl, "--socket", daemon.socket, "hook", "--oneshot", "/bin/sh", "-c",
      "echo \"$ORIENTD_ORIENTATION $ORIENTD_XRANDR $ORIENTD_MODE\" >> \(log)",
    ])
    #expect(result.status == 0, "\(result.stderr)")
    #expect(fileText(log) == "left-up left unknown\n")
    let failing = try runToCompletion([
      TestPaths.orientctl, "--socket", daemon.socket, "hook", "--oneshot", "/bin/sh", "-c", "exit 3",
    ])
    #expect(failing.status == 3, "\(failing.stderr)")
    let missing = try runToCompletion([
      TestPaths.orientctl, "--socket", daemon.socket, "hook", "--oneshot", scratch.path("no-such-hook"),
    ])
    #expect(missing.status == 127, "\(missing.stderr)")
    #expect(daemon.stop() == 0)
    let absent = try runToCompletion([
      TestPaths.orientctl, "--socket", daemon.socket, "hook", "--oneshot", "/bin/true",
    ])
    #expect(absent.status == 69, "\(absent.stderr)")
  }
}
