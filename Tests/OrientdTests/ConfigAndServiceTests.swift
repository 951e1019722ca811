import Foundation
import Testing

/// The package's root directory, for the shipped config, hooks and units.
let packageRoot: String = {
  var url = URL(fileURLWithPath: #filePath)
  for _ in 0..<3 { url.deleteLastPathComponent() }
  return url.path
}()

@Suite("The config file, SIGHUP, systemd integration and install")
struct ConfigAndServiceTests {
  func writeConfig(_ text: String, in directory: String) throws -> String {
    let path = directory + "/orientd.conf"
    try text.write(toFile: path, atomically: true, encoding: .utf8)
    return path
  }

  @Test(
    "A bad config file exits 78 naming file:line and the key, with a suggestion",
    arguments: [
      ("treshold = 0.5\n", ":1: unknown key 'treshold' (did you mean 'threshold'?)"),
      ("# ok\ninterval = often\n", ":2: interval: expected whole milliseconds"),
      ("allowed = normal\nallowed = sideways\n", ":2: allowed: unknown screen orientation 'sideways'"),
      ("no equals sign here\n", ":1: expected 'key = value'"),
    ])
  func badConfig(text: String, message: String) throws {
    let directory = try TestPaths.scratchDirectory()
    let path = try writeConfig(text, in: directory)
    let result = try runToCompletion([TestPaths.orientd, "--config", path, "--demo", "--dump"])
    #expect(result.status == 78)
    #expect(result.stderr.contains(path + message), "\(result.stderr)")
  }

  @Test("A missing explicit config file is an error; the shipped config is valid and all comments")
  func missingAndShippedConfig() throws {
    let missing = try runToCompletion([
      TestPaths.orientd, "--config", "/nonexistent/orientd.conf", "--demo", "--dump",
    ])
    #expect(missing.status == 78)
    #expect(missing.stderr.contains("/nonexistent/orientd.conf"))

    var trace = TraceBuilder(stepMilliseconds: 100)
    trace.hold(1, 0, 0, count: 5)
    let shipped = try runToCompletion([
      TestPaths.orientd, "--config", packageRoot + "/config/orientd.conf", "--dump", "--replay",
      try trace.write(),
    ])
    #expect(shipped.status == 0, "\(shipped.stderr)")
    #expect(shipped.stdout.contains("device left-up"))
    // Every commented-out setting in the shipped file is itself valid when uncommented.
    let text = try String(contentsOfFile: packageRoot + "/config/orientd.conf", encoding: .utf8)
    let settings = text.split(separator: "\n").filter {
      $0.hasPrefix("#") && $0.contains(" = ") && !$0.hasPrefix("# ")
    }
    #expect(settings.count >= 15)
    let directory = try TestPaths.scratchDirectory()
    // Leave out the ones that point at this machine's devices and files.
    let uncommented = settings.map { String($0.dropFirst()) }.filter { line in
      !["uri", "device", "record"].contains { line.hasPrefix($0 + " ") }
    }
    let path = try writeConfig(uncommented.joined(separator: "\n") + "\n", in: directory)
    let all = try runToCompletion([
      TestPaths.orientd, "--config", path, "--dump", "--replay", try trace.write(),
    ])
    #expect(all.status == 0, "\(all.stderr)")
  }

  @Test("Command-line options override the file")
  func overrides() throws {
    let directory = try TestPaths.scratchDirectory()
    let path = try writeConfig("settle = 1000\nallowed = normal\n", in: directory)
    var trace = TraceBuilder(stepMilliseconds: 100)
    trace.hold(1, 0, 0, count: 5)
    let fromFile = try runToCompletion([
      TestPaths.orientd, "--config", path, "--dump", "--replay", try trace.write(),
    ])
    #expect(fromFile.stdout.isEmpty, "settle 1000 ms never passes in 0.4 s: \(fromFile.stdout)")
    let overridden = try runToCompletion([
      TestPaths.orientd, "--config", path, "--settle", "0", "--allowed", "left-up", "--dump", "--replay",
      try trace.write(),
    ])
    #expect(overridden.stdout == "0.000 device left-up\n0.000 orientation left-up\n")
  }

  @Test(
    "SIGHUP applies new tunables, allowed set and hooks without dropping clients; a bad file keeps the old")
  func reload() throws {
    let directory = try TestPaths.scratchDirectory()
    let log = directory + "/hook.log"
    let config = try writeConfig("allowed = normal, left-up\n", in: directory)
    let daemon = try ServedDaemon(extra: ["--config", config], directory: directory)
    let subscriber = try TestClient(path: daemon.socket)
    #expect(subscriber.readLines(5).last == "allowed normal,left-up")

    _ = try writeConfig(
      "allowed = normal, right-up\nhook = echo \"$ORIENTD_ORIENTATION\" >> \(log)\n", in: directory)
    daemon.process.signal(SIGHUP)
    #expect(subscriber.readLine() == "allowed normal,right-up")
    #expect(daemon.process.waitFor("reloaded \(config)", inStderr: true))
    #expect(try daemon.orientctl("rotate", "ccw").status == 0)
    #expect(subscriber.readLines(2) == ["lock right-up", "orientation right-up"])
    #expect(waitForFile(log, toContain: "right-up"))

    _ = try writeConfig("allowed = normal\nthreshold = lots\n", in: directory)
    daemon.process.signal(SIGHUP)
    #expect(daemon.process.waitFor("reloading \(config) failed: \(config):2: threshold", inStderr: true))
    subscriber.send("get\n")
    #expect(subscriber.readLines(through: "ok").contains("allowed normal,right-up"))
    #expect(daemon.stop() == 0)
  }

  @Test("The service manager gets READY=1, WATCHDOG=1 at half WATCHDOG_USEC, and STOPPING=1")
  func notify() throws {
    let directory = try TestPaths.scratchDirectory()
    let path = directory + "/notify"
    let receiver = socket(AF_UNIX, Int32(SOCK_DGRAM.rawValue | SOCK_CLOEXEC.rawValue), 0)
    defer { close(receiver) }
    var address = sockaddr_un()
    address.sun_family = sa_family_t(AF_UNIX)
    withUnsafeMutableBytes(of: &address.sun_path) { bytes in
      for (index, byte) in path.utf8.enumerated() { bytes[index] = byte }
    }
    let bound = withUnsafePointer(to: &address) {
      $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
        bind(receiver, $0, socklen_t(MemoryLayout<sockaddr_un>.size))
      }
    }
    try #require(bound == 0)
    var environment = ProcessInfo.processInfo.environment
    environment["NOTIFY_SOCKET"] = path
    environment["WATCHDOG_USEC"] = "200000"
    let daemon = try TestProcess(
      [TestPaths.orientd, "--demo", "--socket", directory + "/s", "--state", directory + "/st"],
      environment: environment)
    var messages: [String] = []
    let deadline = Date().addingTimeInterval(5)
    while Date() < deadline, messages.filter({ $0 == "WATCHDOG=1" }).count < 3 {
      var pollEntry = pollfd(fd: receiver, events: Int16(POLLIN), revents: 0)
      guard poll(&pollEntry, 1, 500) > 0 else { continue }
      var buffer = [UInt8](repeating: 0, count: 512)
      let count = buffer.withUnsafeMutableBytes { recv(receiver, $0.baseAddress, $0.count, 0) }
      if count > 0 { messages.append(String(decoding: buffer[0..<count], as: UTF8.self)) }
    }
    #expect(messages.first?.hasPrefix("READY=1") == true, "\(messages)")
    #expect(messages.filter { $0 == "WATCHDOG=1" }.count >= 3)
    daemon.signal(SIGTERM)
    #expect(daemon.waitForExit(timeout: 10) == 0)
    var buffer = [UInt8](repeating: 0, count: 512)
    var sawStopping = false
    while true {
      let count = buffer.withUnsafeMutableBytes {
        recv(receiver, $0.baseAddress, $0.count, Int32(MSG_DONTWAIT))
      }
      guard count > 0 else { break }
      if String(decoding: buffer[0..<count], as: UTF8.self) == "STOPPING=1" { sawStopping = true }
    }
    #expect(sawStopping)
  }

  @Test("Socket activation: orientd serves the socket systemd passes and leaves its file alone")
  func socketActivation() throws {
    let activate = try #require(
      TestPaths.which("systemd-socket-activate"), "systemd-socket-activate is missing")
    let directory = try TestPaths.scratchDirectory()
    let socket = directory + "/activated.sock"
    let activator = try TestProcess([
      activate, "-l", socket, TestPaths.orientd, "--demo", "--socket", socket, "--state", directory + "/st",
    ])
    let deadline = Date().addingTimeInterval(10)
    while !FileManager.default.fileExists(atPath: socket), Date() < deadline { usleep(10_000) }
    // The first connection makes systemd-socket-activate start orientd with the socket.
    let result = try runToCompletion([TestPaths.orientctl, "--socket", socket, "get"])
    #expect(result.status == 0)
    #expect(result.stdout.contains("lock off\nallowed normal,left-up,bottom-up,right-up\n"))
    #expect(activator.waitFor("using the socket passed by systemd", inStderr: true))
    #expect(!activator.stderr.contains("listening on"))
    activator.signal(SIGTERM)
    #expect(activator.waitForExit(timeout: 10) == 0)
    #expect(FileManager.default.fileExists(atPath: socket), "the socket file belongs to systemd")
  }

  @Test(
    "make install lays out binaries, units, udev rule, config and hooks; the units pass systemd-analyze verify"
  )
  func install() throws {
    let make = try #require(TestPaths.which("make"), "make is missing")
    let analyze = try #require(TestPaths.which("systemd-analyze"), "systemd-analyze is missing")
    let prefix = try TestPaths.scratchDirectory()
    let installed = try runToCompletion(
      [
        make, "-C", packageRoot, "install", "NOBUILD=1", "BINPATH=\(TestPaths.buildDirectory.path)",
        "PREFIX=\(prefix)/usr", "SYSCONFDIR=\(prefix)/etc", "UDEVRULESDIR=\(prefix)/usr/lib/udev/rules.d",
      ], timeout: 120)
    #expect(installed.status == 0, "\(installed.stderr)")
    let expected = [
      "usr/bin/orientd", "usr/bin/orientctl", "usr/lib/systemd/system/orientd.service",
      "usr/lib/systemd/system/orientd.socket", "usr/lib/systemd/user/orientd-hook.service",
      "usr/lib/udev/rules.d/61-orientd.rules", "etc/orientd/orientd.conf", "usr/share/orientd/hooks/auto",
      "usr/share/orientd/hooks/x11", "usr/share/orientd/hooks/sway", "usr/share/orientd/hooks/hyprland",
      "usr/share/orientd/hooks/kde", "usr/share/orientd/hooks/wlroots", "usr/share/orientd/hooks/common.sh",
      "usr/share/doc/orientd/README.md",
    ]
    for file in expected { #expect(FileManager.default.fileExists(atPath: "\(prefix)/\(file)"), "\(file)") }
    let service = try String(
      contentsOfFile: "\(prefix)/usr/lib/systemd/system/orientd.service", encoding: .utf8)
    #expect(
      service.contains("ExecStart=\(prefix)/usr/bin/orientd --config \(prefix)/etc/orientd/orientd.conf"))
    for placeholder in ["@BINDIR@", "@SYSCONFDIR@", "@DOCDIR@", "@HOOKSDIR@"] {
      #expect(!service.contains(placeholder), "\(placeholder) is filled in")
    }

    let verify = try runToCompletion([
      analyze, "verify", "\(prefix)/usr/lib/systemd/system/orientd.service",
      "\(prefix)/usr/lib/systemd/system/orientd.socket",
    ])
    #expect(verify.status == 0, "\(verify.stdout)\(verify.stderr)")
    var environment = ProcessInfo.processInfo.environment
    let runtime = try TestPaths.scratchDirectory()
    environment["XDG_RUNTIME_DIR"] = runtime
    let verifyUser = try runToCompletion(
      [analyze, "verify", "--user", "\(prefix)/usr/lib/systemd/user/orientd-hook.service"],
      environment: environment)
    #expect(verifyUser.status == 0, "\(verifyUser.stdout)\(verifyUser.stderr)")

    // An edited config survives reinstall and uninstall; everything else goes.
    try "threshold = 0.7\n".write(
      toFile: "\(prefix)/etc/orientd/orientd.conf", atomically: true, encoding: .utf8)
    let removed = try runToCompletion(
      [
        make, "-C", packageRoot, "uninstall", "NOBUILD=1", "BINPATH=\(TestPaths.buildDirectory.path)",
        "PREFIX=\(prefix)/usr", "SYSCONFDIR=\(prefix)/etc", "UDEVRULESDIR=\(prefix)/usr/lib/udev/rules.d",
      ], timeout: 60)
    #expect(removed.status == 0, "\(removed.stderr)")
    for file in expected where file != "etc/orientd/orientd.conf" {
      #expect(!FileManager.default.fileExists(atPath: "\(prefix)/\(file)"), "\(file) should be gone")
    }
    #expect(
      try String(contentsOfFile: "\(prefix)/etc/orientd/orientd.conf", encoding: .utf8) == "threshold = 0.7\n"
    )
  }
}

/// Waits until the file at `path` contains `text`.
func waitForFile(_ path: String, toContain text: String, timeout: Double = 10) -> Bool {
  let deadline = Date().addingTimeInterval(timeout)
  repeat {
    if let contents = try? String(contentsOfFile: path, encoding: .utf8), contents.contains(text) {
      return true
    }
    usleep(10_000)
  } while Date() < deadline
  return false
}
