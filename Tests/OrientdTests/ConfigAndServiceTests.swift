import Foundation
import Testing

@Suite("The config file, SIGHUP, systemd integration and install", .scratch)
struct ConfigAndServiceTests {
  func writeConfig(_ text: String, in directory: String) throws -> String {
    let path = directory + "/orientd.conf"
    try writeConfigFile(text, to: path)
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
    let directory = try Scratch.current().makeDirectory()
    let path = try writeConfig(text, in: directory)
    let result = try runToCompletion([TestPaths.orientd, "--config", path, "--demo", "--dump"])
    #expect(result.status == 78)
    #expect(result.stderr.contains(path + message), "\(result.stderr)")
  }

  @Test("A missing explicit config file is an error; the shipped config is valid and all comments")
  func missingAndShippedConfig() throws {
    let scratch = try Scratch.current()
    let absent = scratch.path("absent/orientd.conf")
    let missing = try runToCompletion([TestPaths.orientd, "--config", absent, "--demo", "--dump"])
    #expect(missing.status == 78)
    #expect(missing.stderr.contains(absent))

    var trace = TraceBuilder(stepMilliseconds: 100)
    trace.hold(1, 0, 0, count: 5)
    let shipped = try runToCompletion([
      TestPaths.orientd, "--config", TestPaths.packageRoot + "/config/orientd.conf", "--dump", "--replay",
      try trace.write(),
    ])
    #expect(shipped.status == 0, "\(shipped.stderr)")
    #expect(shipped.stdout.contains("device left-up"))
    // Every commented-out setting in the shipped file is itself valid when uncommented.
    let text = try String(contentsOfFile: TestPaths.packageRoot + "/config/orientd.conf", encoding: .utf8)
    let settings = text.split(separator: "\n").filter {
      $0.hasPrefix("#") && $0.contains(" = ") && !$0.hasPrefix("# ")
    }
    #expect(settings.count >= 15)
    let directory = try scratch.makeDirectory()
    // Leave out the ones that point at this machine's devices and files; the other paths move
    // into the scratch directory and the example hook becomes harmless, should they ever be used.
    let uncommented = settings.map { String($0.dropFirst()) }.filter { line in
      !["uri", "device", "record"].contains { line.hasPrefix($0 + " ") }
    }.map { line in
      if line.hasPrefix("hook = ") { return "hook = true" }
      return line.replacingOccurrences(of: " = /", with: " = \(directory)/")
    }
    let path = try writeConfig(uncommented.joined(separator: "\n") + "\n", in: directory)
    let all = try runToCompletion([
      TestPaths.orientd, "--config", path, "--dump", "--replay", try trace.write(),
    ])
    #expect(all.status == 0, "\(all.stderr)")
  }

  @Test("Command-line options override the file")
  func overrides() throws {
    let directory = try Scratch.current().makeDirectory()
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
    let directory = try Scratch.current().makeDirectory()
    let log = directory + "/hook.log"
    let config = try writeConfig("allowed = normal, left-up\nthreshold = 0.95\n", in: directory)
    let (run, socket) = try servingFakeSensor(
      [.accelerometer(raw: (0, -256, 0))], extra: ["--config", config, "--interval", "20", "--settle", "0"],
      ready: "info: orientation normal")
    let subscriber = try TestClient(path: socket)
    #expect(subscriber.readLines(greetingLines).suffix(2) == ["allowed normal,left-up", "mode unknown"])
    // Tilted 65 degrees towards left-up: x is 0.91 g, short of the threshold, and y is too
    // small to hold normal; the device stays normal in the dead zone.
    try run.setRaw(232, -108, 0)
    #expect(try run.waitForPolls(3))

    _ = try writeConfig(
      "allowed = normal, left-up, right-up\nthreshold = 0.6\nhook = echo \"$ORIENTD_ORIENTATION\" >> \(log)\n",
      in: directory)
    run.signal(SIGHUP)
    #expect(subscriber.readLine() == "allowed normal,left-up,right-up")
    #expect(run.process.waitFor("reloaded \(config)", inStderr: true))
    // At the new threshold the same reading is left-up, and the new hook runs for it.
    #expect(subscriber.readLines(2) == ["device left-up", "orientation left-up"])
    #expect(waitForFile(log, toContain: "left-up"))

    // Settings only a restart applies are named, in the option table's order; a setting the
    // command line gives (--interval) is the command line's whatever the file says.
    _ = try writeConfig(
      "allowed = normal, left-up, right-up\nthreshold = 0.6\nhook = echo \"$ORIENTD_ORIENTATION\" >> \(log)\n"
        + "rotate = always\ninterval = 500\nmax-clients = 10\n",
      in: directory)
    run.signal(SIGHUP)
    #expect(
      run.process.waitFor("warning: max-clients, rotate changed; restart orientd to apply", inStderr: true))

    _ = try writeConfig("allowed = normal\nthreshold = lots\n", in: directory)
    run.signal(SIGHUP)
    #expect(run.process.waitFor("reloading \(config) failed: \(config):2: threshold", inStderr: true))
    subscriber.send("get\ninfo\n")
    let state = subscriber.readLines(through: "ok") + subscriber.readLines(through: "ok")
    #expect(state.contains("allowed normal,left-up,right-up"), "\(state)")
    #expect(state.contains("info threshold 0.6"), "\(state)")
    #expect(run.stop() == 0)
  }

  @Test("The service manager gets READY=1, WATCHDOG=1 at half WATCHDOG_USEC, and STOPPING=1")
  func notify() throws {
    let manager = try ServiceManagerSocket()
    defer { close(manager.receiver) }
    let daemon = try manager.start(["--demo", "--verbose"], watchdogMicroseconds: 200_000)
    let receiver = manager.receiver
    var messages: [String] = []
    // Reads every message waiting. orientd's notifications block once about ten are left
    // unread, so every wait below keeps reading.
    func receive() {
      var buffer = [UInt8](repeating: 0, count: 512)
      while true {
        let count = buffer.withUnsafeMutableBytes {
          recv(receiver, $0.baseAddress, $0.count, Int32(MSG_DONTWAIT))
        }
        guard count > 0 else { return }
        messages.append(String(decoding: buffer[0..<count], as: UTF8.self))
      }
    }
    #expect(
      waitUntil {
        receive(); return messages.filter { $0 == "WATCHDOG=1" }.count >= 3
      }, "\(messages)")
    #expect(messages.first?.hasPrefix("READY=1") == true, "\(messages)")
    // Half of 200 ms.
    #expect(
      waitUntil {
        receive(); return daemon.stderr.contains("watchdog: notifying every 100 ms")
      })
    daemon.signal(SIGTERM)
    #expect(
      waitUntil {
        receive(); return !daemon.isRunning
      })
    #expect(daemon.waitForExit(timeout: 0) == 0)
    receive()
    #expect(messages.last == "STOPPING=1", "\(messages.suffix(3))")
  }

  @Test("A service manager that stops reading its notifications never stalls orientd")
  func unreadNotificationsDoNotBlock() throws {
    // Never read: its queue fills after about ten datagrams. A ping every 10 ms.
    let manager = try ServiceManagerSocket()
    defer { close(manager.receiver) }
    let daemon = try manager.start(["--demo"], watchdogMicroseconds: 20_000)
    let (path, socketPath) = (manager.path, manager.daemonSocket)
    // The premise: the queue is full and orientd has found out.
    #expect(
      daemon.waitFor(
        "cannot notify the service manager at \(path): Resource temporarily unavailable", inStderr: true),
      "\(daemon.stderr)")
    for _ in 0..<3 {
      let state = try runToCompletion([TestPaths.orientctl, "--socket", socketPath, "get"])
      #expect(state.status == 0, "orientd stopped serving: \(state.stderr)")
    }
    // One warning stands for the many refused pings.
    #expect(daemon.stderr.split(separator: "\n").filter { $0.contains("cannot notify") }.count <= 2)
    daemon.signal(SIGTERM)
    #expect(daemon.waitForExit() == 0, "orientd did not stop: \(daemon.stderr)")
  }

  @Test(
    "Socket-activated with a mistake in its config or its options, orientd answers the waiting client that it cannot start, so systemd need not start it again for that client",
    arguments: [
      ("threshold = 0.7\ntreshold = 0.5\n", [String](), 78, ":2: unknown key 'treshold'"),
      ("", ["--state", "/var/lib/orientd/"], 78, "the path names no file"),
      ("", ["--dbsu", "system"], 64, "unknown option '--dbsu'"),
    ])
  func socketActivatedConfigMistake(config text: String, options: [String], status: Int32, logged: String)
    throws
  {
    let activate = try #require(
      TestPaths.which("systemd-socket-activate"), "systemd-socket-activate is missing")
    let scratch = try Scratch.current()
    let directory = try scratch.makeDirectory()
    let socket = directory + "/activated.sock"
    let config = directory + "/orientd.conf"
    try writeConfigFile(text, to: config)
    let state = options.contains("--state") ? [] : ["--state", directory + "/st"]
    let arguments = try TestPaths.isolated(
      orientdArguments: ["--demo", "--socket", socket, "--config", config] + state + options, in: scratch)
    let activator = try TestProcess([activate, "-l", socket, TestPaths.orientd] + arguments)
    // It says so once the socket listens: the file alone is there from bind(), before listen().
    try #require(activator.waitFor("Listening on \(socket)", inStderr: true), "\(activator.stderr)")
    // The first connection makes systemd-socket-activate start orientd, which cannot start. The
    // client hears so at once, not after its --timeout, and the mistake stays in orientd's log.
    let result = try runToCompletion([TestPaths.orientctl, "--socket", socket, "--timeout", "60", "get"])
    #expect(result.status == 69, "\(result.stdout)\(result.stderr)")
    #expect(
      result.stderr
        == "orientctl: orientd cannot start: its configuration has a mistake; 'systemctl status orientd' says"
        + " which\n")
    #expect(!result.stderr.contains("treshold"), "a client is not shown the file's contents")
    #expect(activator.waitForExit() == status, "\(activator.stderr)")
    #expect(activator.stderr.contains(logged), "\(activator.stderr)")
  }

  @Test("Socket-activated, orientd serves the socket systemd passes and leaves its file alone")
  func socketActivation() throws {
    let activate = try #require(
      TestPaths.which("systemd-socket-activate"), "systemd-socket-activate is missing")
    let scratch = try Scratch.current()
    let directory = try scratch.makeDirectory()
    let socket = directory + "/activated.sock"
    let arguments = try TestPaths.isolated(
      orientdArguments: ["--demo", "--socket", socket, "--state", directory + "/st"], in: scratch)
    let activator = try TestProcess([activate, "-l", socket, TestPaths.orientd] + arguments)
    // It says so once the socket listens: the file alone is there from bind(), before listen().
    try #require(activator.waitFor("Listening on \(socket)", inStderr: true), "\(activator.stderr)")
    // The first connection makes systemd-socket-activate start orientd with the socket.
    let result = try runToCompletion([TestPaths.orientctl, "--socket", socket, "get"])
    #expect(result.status == 0)
    #expect(
      completeLines(result.stdout).suffix(2) == ["allowed normal,left-up,bottom-up,right-up", "mode unknown"])
    #expect(activator.waitFor("using the socket passed by systemd", inStderr: true))
    #expect(!activator.stderr.contains("listening on"))
    activator.signal(SIGTERM)
    #expect(activator.waitForExit() == 0)
    #expect(FileManager.default.fileExists(atPath: socket), "the socket file belongs to systemd")
  }

  @Test(
    "make install lays out binaries, units, udev rule, bus policy, config and hooks; the units pass systemd-analyze verify"
  )
  func install() throws {
    let make = try #require(TestPaths.which("make"), "make is missing")
    let analyze = try #require(TestPaths.which("systemd-analyze"), "systemd-analyze is missing")
    let scratch = try Scratch.current()
    let prefix = try scratch.makeDirectory("prefix")
    let installed = try runToCompletion(
      [
        // SWIFT=false: install only copies, so it runs where swift is not on PATH (sudo).
        make, "-C", TestPaths.packageRoot, "install", "SWIFT=false",
        "BINPATH=\(TestPaths.buildDirectory.path)",
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
      // PREFIX is not /usr: the system bus reads no policy under it, only under /etc.
      "etc/dbus-1/system.d/orientd-sensorproxy.conf",
    ]
    for file in expected { #expect(FileManager.default.fileExists(atPath: "\(prefix)/\(file)"), "\(file)") }
    let service = try String(
      contentsOfFile: "\(prefix)/usr/lib/systemd/system/orientd.service", encoding: .utf8)
    #expect(
      service.contains(
        "ExecStart=\(prefix)/usr/bin/orientd --default-config \(prefix)/etc/orientd/orientd.conf --dbus system\n"
      ))
    for placeholder in ["@BINDIR@", "@SYSCONFDIR@", "@DOCDIR@", "@HOOKSDIR@"] {
      #expect(!service.contains(placeholder), "\(placeholder) is filled in")
    }
    // After the bus when both start, never bound to it: orientd runs without a bus.
    let unitLines = service.split(separator: "\n")
    // A config mistake fails the service at once rather than restarting it every second, and
    // a reload checks the file with ExecStart's own options before it signals orientd.
    #expect(unitLines.contains("RestartPreventExitStatus=64 78"), "\(service)")
    let start = try #require(unitLines.first { $0.hasPrefix("ExecStart=") }).dropFirst("ExecStart=".count)
    let reloads = unitLines.filter { $0.hasPrefix("ExecReload=") }.map { $0.dropFirst("ExecReload=".count) }
    #expect(
      reloads == [
        start.replacingOccurrences(of: "/orientd --", with: "/orientd --check-config --")[...],
        "/bin/kill -HUP $MAINPID",
      ], "\(service)")
    let checkCommand = reloads[0].split(separator: " ").map(String.init)
    let config = "\(prefix)/etc/orientd/orientd.conf"
    let installedIsValid = try runToCompletion(checkCommand)
    #expect(installedIsValid.status == 0, "the shipped config: \(installedIsValid.stderr)")
    try (String(contentsOfFile: config, encoding: .utf8) + "treshold = 0.5\n").write(
      toFile: config, atomically: true, encoding: .utf8)
    let typo = try runToCompletion(checkCommand)
    #expect(typo.status == 78, "\(typo.stdout)\(typo.stderr)")
    #expect(typo.stderr.contains("\(config):"), "\(typo.stderr)")
    #expect(unitLines.contains("After=orientd.socket dbus.socket"), "\(service)")
    #expect(
      !unitLines.contains { ($0.hasPrefix("Requires=") || $0.hasPrefix("BindsTo=")) && $0.contains("dbus") })
    // The closed device policy lets in what orientd opens: the IIO devices, the input devices
    // to read switches, uinput for the virtual switch, and the DRM devices to read (the panel's
    // mount); nothing else.
    #expect(
      unitLines.filter { $0.hasPrefix("DeviceAllow=") || $0.hasPrefix("DevicePolicy=") } == [
        "DevicePolicy=closed", "DeviceAllow=char-iio rw", "DeviceAllow=char-input r",
        "DeviceAllow=/dev/uinput rw", "DeviceAllow=char-drm r",
      ], "\(service)")

    // The bus policy: world-readable, not writable by others, and a config include that
    // dbus-daemon accepts (the bus does not start otherwise).
    let policy = "\(prefix)/etc/dbus-1/system.d/orientd-sensorproxy.conf"
    let mode = try FileManager.default.attributesOfItem(atPath: policy)[.posixPermissions] as? Int
    #expect(mode == 0o644, "mode \(String(mode ?? 0, radix: 8))")
    _ = try policyBus(including: policy)

    // verify runs man for each Documentation=man: page; the installed ones are found there.
    var manual = scratch.environment
    manual["MANPATH"] = "\(prefix)/usr/share/man"
    let verify = try runToCompletion(
      [
        analyze, "verify", "\(prefix)/usr/lib/systemd/system/orientd.service",
        "\(prefix)/usr/lib/systemd/system/orientd.socket",
      ], environment: manual)
    #expect(verify.status == 0, "\(verify.stdout)\(verify.stderr)")
    // The sandbox is no weaker than before the bus: exposure 1.7 at most (the scale is x10).
    let security = try runToCompletion([
      analyze, "security", "--offline=yes", "--threshold=17",
      "\(prefix)/usr/lib/systemd/system/orientd.service",
    ])
    #expect(security.status == 0, "\(security.stdout.split(separator: "\n").last ?? "")\(security.stderr)")
    var environment = manual
    environment["XDG_RUNTIME_DIR"] = try scratch.makeDirectory("runtime")
    let verifyUser = try runToCompletion(
      [analyze, "verify", "--user", "\(prefix)/usr/lib/systemd/user/orientd-hook.service"],
      environment: environment)
    #expect(verifyUser.status == 0, "\(verifyUser.stdout)\(verifyUser.stderr)")

    // The config file is optional for the service: the unit's own command line runs without it.
    let execStart = try #require(
      service.split(separator: "\n").first { $0.hasPrefix("ExecStart=") }?.dropFirst("ExecStart=".count))
    let unitArguments = execStart.split(separator: " ").map(String.init)
    try FileManager.default.removeItem(atPath: "\(prefix)/etc/orientd/orientd.conf")
    var trace = TraceBuilder(stepMilliseconds: 100)
    trace.hold(1, 0, 0, count: 5)
    let withoutConfig = try runToCompletion(
      unitArguments + ["--dump", "--replay", try trace.write()])
    #expect(withoutConfig.status == 0, "\(withoutConfig.stderr)")
    #expect(withoutConfig.stdout.contains("orientation left-up"), "\(withoutConfig.stdout)")

    // An edited config survives reinstall and uninstall; everything else goes.
    try "threshold = 0.7\n".write(
      toFile: "\(prefix)/etc/orientd/orientd.conf", atomically: true, encoding: .utf8)
    let removed = try runToCompletion(
      [
        make, "-C", TestPaths.packageRoot, "uninstall", "SWIFT=false",
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

extension ConfigAndServiceTests {
  @Test(
    "make install puts the bus policy where the system bus reads it: /usr/share for PREFIX=/usr, else /etc",
    arguments: [("/usr", "usr/share/dbus-1/system.d"), ("/usr/local", "etc/dbus-1/system.d")])
  func busPolicyDirectory(prefix: String, directory: String) throws {
    let make = try #require(TestPaths.which("make"), "make is missing")
    let destination = try stagedMakeInstall(prefix: prefix)
    let policy = "\(destination)/\(directory)/orientd-sensorproxy.conf"
    #expect(FileManager.default.fileExists(atPath: policy), "\(policy)")
    // Never iio-sensor-proxy's file name, which Debian installs under /etc.
    #expect(
      !FileManager.default.fileExists(atPath: "\(destination)/\(directory)/net.hadess.SensorProxy.conf"))
    let removed = try runToCompletion(
      [make, "-C", TestPaths.packageRoot, "uninstall", "PREFIX=\(prefix)", "DESTDIR=\(destination)"],
      timeout: 60)
    #expect(removed.status == 0, "\(removed.stderr)")
    #expect(!FileManager.default.fileExists(atPath: policy))
  }

  @Test("make install with nothing built says to run make first, and installs nothing")
  func installWithoutBuild() throws {
    let make = try #require(TestPaths.which("make"), "make is missing")
    let scratch = try Scratch.current()
    let prefix = try scratch.makeDirectory("prefix")
    let empty = try scratch.makeDirectory("nothing-built")
    let result = try runToCompletion(
      [
        make, "-C", TestPaths.packageRoot, "install", "SWIFT=false", "BINPATH=\(empty)",
        "PREFIX=\(prefix)/usr",
        "SYSCONFDIR=\(prefix)/etc", "UDEVRULESDIR=\(prefix)/usr/lib/udev/rules.d",
      ], timeout: 60)
    #expect(result.status != 0)
    #expect(
      result.stderr.contains(
        "make install: orientd is not built in \(empty): run 'make' as yourself first, then 'sudo make install'"
      ),
      "\(result.stderr)")
    #expect(try FileManager.default.contentsOfDirectory(atPath: prefix).isEmpty)
  }
}

/// A service manager's notification socket (`$NOTIFY_SOCKET`) in the scratch directory, and
/// orientd started to notify it.
private struct ServiceManagerSocket {
  let directory: String
  let path: String
  /// The bound datagram socket; the test reads it, or leaves it unread, and closes it.
  let receiver: Int32

  init() throws {
    directory = try Scratch.current().makeDirectory()
    path = directory + "/notify"
    receiver = socket(AF_UNIX, Int32(SOCK_DGRAM.rawValue | SOCK_CLOEXEC.rawValue), 0)
    try #require(withUnixAddress(path) { bind(receiver, $0, $1) } == 0)
  }

  /// Where the started orientd serves its clients.
  var daemonSocket: String { directory + "/s" }

  /// Starts orientd with `arguments`, told to notify here with the watchdog at `watchdogMicroseconds`.
  func start(_ arguments: [String], watchdogMicroseconds: Int) throws -> TestProcess {
    var environment = try Scratch.current().environment
    environment["NOTIFY_SOCKET"] = path
    environment["WATCHDOG_USEC"] = String(watchdogMicroseconds)
    return try TestProcess(
      [TestPaths.orientd] + arguments + ["--socket", daemonSocket, "--state", directory + "/st"],
      environment: environment)
  }
}
