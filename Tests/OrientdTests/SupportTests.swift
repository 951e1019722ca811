import Foundation
import Testing

@Suite("The test support's own guards", .scratch)
struct SupportTests {
  @Test("A signal to pid 0 or a negative pid is refused and reported, never sent")
  func refusesProcessGroups() {
    // Signal 0 only asks whether the target exists: were the guard gone, these calls would
    // reach kill(2) and report success instead of doing harm.
    for pid: pid_t in [0, -1, -getpgrp()] {
      var reports: [String] = []
      #expect(!sendSignal(0, to: pid, "a pid read from an empty file") { reports.append($0) }, "pid \(pid)")
      #expect(
        reports.count == 1 && reports[0].hasPrefix("refusing to send signal 0 to pid \(pid)"), "\(reports)")
    }
    var reports: [String] = []
    #expect(sendSignal(0, to: getpid(), "this process") { reports.append($0) })
    #expect(reports.isEmpty)
  }

  @Test("A pid handed over in a file must be a positive number")
  func pidFiles() {
    for text in ["", "\n", "0", "-1", "12x", " "] {
      var reports: [String] = []
      #expect(parsePID(text, from: "a pid file") { reports.append($0) } == nil, "'\(text)'")
      #expect(reports == ["a pid file holds '\(text)', not a pid"])
    }
    #expect(parsePID("4242\n", from: "a pid file") == 4242)
  }

  @Test(
    "orientd is given a config file, and a socket and state file when it serves, all in the scratch directory"
  )
  func orientdStaysOffTheHost() throws {
    let scratch = try Scratch.current()
    func paths(_ arguments: [String]) throws -> [String: String] {
      let result = try TestPaths.isolated(orientdArguments: arguments, in: scratch)
      #expect(result.starts(with: arguments), "what the test gives comes first, unchanged")
      var values: [String: String] = [:]
      for (option, value) in zip(result, result.dropFirst()) where option.hasPrefix("--") {
        values[option] = value
      }
      return values
    }
    let serving = try paths(["--replay", "t.trace"])
    for option in ["--config", "--socket", "--state"] {
      #expect(serving[option]?.hasPrefix(scratch.path + "/") == true, "\(option): \(serving)")
    }
    #expect(try fileText(#require(serving["--config"])).isEmpty)
    let dump = try paths(["--dump", "--replay", "t.trace"])
    #expect(dump["--config"] != nil && dump["--socket"] == nil && dump["--state"] == nil, "\(dump)")
    // A dump given a socket also persists its state.
    let dumpServing = try paths(["--dump", "--socket", scratch.path("s")])
    #expect(dumpServing["--state"]?.hasPrefix(scratch.path + "/") == true, "\(dumpServing)")
    #expect(try paths(["--list"])["--socket"] == nil)
    // What the test chose is kept.
    let own = try paths(["--config", "/x.conf", "--socket=/y"])
    #expect(own["--config"] == "/x.conf" && own["--socket"] == nil && own["--state"] != nil, "\(own)")
  }

  @Test(
    "Children get no service-manager, bus or desktop-session variables, and orientctl reaches no installed daemon"
  )
  func environment() throws {
    let scratch = try Scratch.current()
    // As a test runner started by a service manager, in a desktop session with orientd set up.
    let hostOnly = [
      "NOTIFY_SOCKET": "/run/systemd/notify", "WATCHDOG_USEC": "1000000", "WATCHDOG_PID": "1",
      "LISTEN_FDS": "1", "LISTEN_PID": "1", "LISTEN_FDNAMES": "orientd.socket", "JOURNAL_STREAM": "8:1234",
      "DBUS_SESSION_BUS_ADDRESS": "unix:path=/run/user/1000/bus", "DISPLAY": ":0",
      "WAYLAND_DISPLAY": "wayland-1",
      "SWAYSOCK": "/run/user/1000/sway.sock", "HYPRLAND_INSTANCE_SIGNATURE": "abc",
      "KDE_FULL_SESSION": "true",
      "ORIENTD_OUTPUT": "eDP-1",
    ]
    let redirected = [
      "ORIENTD_SOCKET": "/run/orientd/orientd.sock",
      "DBUS_SYSTEM_BUS_ADDRESS": "unix:path=/run/dbus/system_bus_socket",
      "XDG_RUNTIME_DIR": "/run/user/1000", "TMPDIR": "/var/tmp",
    ]
    let base = hostOnly.merging(redirected) { $1 }.merging(["PATH": "/usr/bin:/bin"]) { $1 }
    let environment = scratch.environment(basedOn: base)
    #expect(environment["PATH"] == "/usr/bin:/bin")
    for name in hostOnly.keys { #expect(environment[name] == nil, "\(name)") }
    for name in redirected.keys {
      #expect(environment[name]?.contains(scratch.path) == true, "\(name): \(environment[name] ?? "unset")")
    }
    let result = try runToCompletion([TestPaths.orientctl, "get"])
    #expect(result.status == 69)
    #expect(result.stderr.contains(scratch.path), "\(result.stderr)")
  }
}
