import Foundation
import Testing

@Suite("Socket permissions, limits and hostile clients")
struct SocketRobustnessTests {
  /// A system group with one member, made for the test (tests run as root).
  static func controlGroup() throws -> (name: String, gid: UInt32, memberUID: UInt32) {
    let group = "orientdctl"
    let member = "orientdctlmember"
    if getgrnam(group) == nil {
      let groupadd = try #require(
        TestPaths.which("groupadd")
          ?? (FileManager.default.fileExists(atPath: "/usr/sbin/groupadd") ? "/usr/sbin/groupadd" : nil))
      _ = try runToCompletion([groupadd, "--system", "-f", group])
    }
    if getpwnam(member) == nil {
      let useradd = try #require(
        FileManager.default.fileExists(atPath: "/usr/sbin/useradd") ? "/usr/sbin/useradd" : nil)
      _ = try runToCompletion([
        useradd, "--system", "--no-create-home", "--shell", "/usr/sbin/nologin", "-G", group, member,
      ])
    }
    let gid = try #require(getgrnam(group)).pointee.gr_gid
    let uid = try #require(getpwnam(member)).pointee.pw_uid
    return (group, gid, uid)
  }

  @Test("With --control-group, another user is refused control but may read; group members may control")
  func controlGroupPermission() throws {
    try #require(getuid() == 0, "this test switches users and must run as root")
    let setpriv = try #require(TestPaths.which("setpriv"), "setpriv is missing (util-linux)")
    let group = try Self.controlGroup()
    let directory = try TestPaths.scratchDirectory()
    chmod(directory, 0o755)
    let daemon = try ServedDaemon(extra: ["--control-group", group.name], directory: directory)
    func orientctl(uid: UInt32, gid: UInt32, _ arguments: String...) throws -> (
      status: Int32, stdout: String, stderr: String
    ) {
      try runToCompletion(
        [
          setpriv, "--reuid", "\(uid)", "--regid", "\(gid)", "--clear-groups", TestPaths.orientctl,
          "--socket", daemon.socket,
        ]
          + arguments)
    }
    let nobody: UInt32 = 65534

    let refused = try orientctl(uid: nobody, gid: nobody, "lock", "left-up")
    #expect(refused.status == 1)
    #expect(refused.stderr.contains("permission-denied"))
    let read = try orientctl(uid: nobody, gid: nobody, "get")
    #expect(read.status == 0)
    #expect(read.stdout.contains("lock off"))

    // In the group through the process's own group id.
    #expect(try orientctl(uid: nobody, gid: group.gid, "lock", "left-up").status == 0)
    // In the group only through the group database (a supplementary group of the user).
    #expect(try orientctl(uid: group.memberUID, gid: nobody, "unlock").status == 0)
    // Root may always control.
    #expect(try daemon.orientctl("rotate", "cw").status == 0)
    #expect(try daemon.orientctl("get").stdout.contains("lock left-up"))
    #expect(daemon.stop() == 0)
  }

  @Test("An unknown --control-group is a usage error")
  func unknownGroup() throws {
    let directory = try TestPaths.scratchDirectory()
    let result = try runToCompletion([
      TestPaths.orientd, "--demo", "--socket", directory + "/s", "--state", directory + "/state",
      "--control-group", "no-such-group-here",
    ])
    #expect(result.status == 64)
    #expect(result.stderr.contains("no group named 'no-such-group-here'"))
  }

  @Test(
    "A subscriber that never reads delays neither the daemon nor a fast subscriber, and memory stays bounded")
  func slowSubscriber() throws {
    let daemon = try ServedDaemon()
    let slow = try TestClient(path: daemon.socket)
    var size: Int32 = 4096
    setsockopt(slow.descriptor, SOL_SOCKET, SO_RCVBUF, &size, socklen_t(MemoryLayout<Int32>.size))
    let fast = try TestClient(path: daemon.socket)
    #expect(fast.readLines(5) == normalSnapshot)
    let controller = try TestClient(path: daemon.socket)
    _ = controller.readLines(5)

    // 8000 rotations: about 300 KB of events, far more than the socket buffers and the
    // 64 KiB per-client limit hold for the subscriber that does not read.
    let rounds = 2000
    let expected = [
      "lock left-up", "orientation left-up", "lock bottom-up", "orientation bottom-up",
      "lock right-up", "orientation right-up", "lock normal", "orientation normal",
    ]
    var received = 0
    var inOrder = true
    for _ in 0..<rounds {
      controller.send("rotate cw\nrotate cw\nrotate cw\nrotate cw\n")
      for line in fast.readLines(8, timeout: 5) {
        if line != expected[received % 8] { inOrder = false }
        received += 1
      }
      _ = controller.readLines(12, timeout: 5)  // per rotate: lock, orientation, ok
    }
    #expect(received == rounds * 8)
    #expect(inOrder)
    let rss = try #require(residentKilobytes(of: daemon.process.pid))
    #expect(rss < 40_000, "orientd grew to \(rss) kB")
    #expect(daemon.process.stderr.contains("is not reading"))

    // The slow subscriber, read at last, got a collapsed backlog that still ends in the current state.
    var lines: [String] = []
    while let line = slow.readLine(timeout: 1) { lines.append(line) }
    var state: [String: String] = [:]
    for line in lines {
      let parts = line.split(separator: " ", maxSplits: 1).map(String.init)
      if parts.count == 2 { state[parts[0]] = parts[1] }
    }
    #expect(lines.count < received, "the backlog should have collapsed")
    #expect(state["orientation"] == "normal")
    #expect(state["lock"] == "normal")
    #expect(state["device"] == "normal")
    #expect(daemon.stop() == 0)
  }

  @Test("200 concurrent subscribers all receive one change")
  func twoHundredSubscribers() throws {
    let daemon = try ServedDaemon(extra: ["--max-clients", "300"])
    let subscribers = try (0..<200).map { _ in try TestClient(path: daemon.socket) }
    for subscriber in subscribers { #expect(subscriber.readLines(5).count == 5) }
    #expect(try daemon.orientctl("lock", "bottom-up").status == 0)
    var delivered = 0
    for subscriber in subscribers
    where subscriber.readLines(2) == ["lock bottom-up", "orientation bottom-up"] {
      delivered += 1
    }
    #expect(delivered == 200)
    #expect(daemon.stop() == 0)
  }

  @Test("Past --max-clients a connection gets too-many-clients and is closed; the others are served")
  func tooManyClients() throws {
    let daemon = try ServedDaemon(extra: ["--max-clients", "2"])
    let first = try TestClient(path: daemon.socket)
    let second = try TestClient(path: daemon.socket)
    _ = first.readLines(5)
    _ = second.readLines(5)
    let third = try TestClient(path: daemon.socket)
    #expect(third.readLine()?.hasPrefix("error too-many-clients") == true)
    #expect(third.waitForClose())
    first.send("ping\n")
    #expect(first.readLine() == "pong")
    #expect(daemon.stop() == 0)
  }

  @Test(
    "Garbage, NUL bytes, invalid UTF-8 and bad arguments get errors; an overlong line closes; others are unaffected"
  )
  func garbageInput() throws {
    let daemon = try ServedDaemon()
    let bystander = try TestClient(path: daemon.socket)
    _ = bystander.readLines(5)
    let client = try TestClient(path: daemon.socket)
    _ = client.readLines(5)

    client.send(bytes: [0x01, 0x02, 0xFF, 0x0A])
    #expect(client.readLine() == "error bad-encoding lines must be UTF-8 text without NUL bytes")
    client.send(bytes: Array("get".utf8) + [0x00] + Array("x\n".utf8))
    #expect(client.readLine()?.hasPrefix("error bad-encoding") == true)
    client.send("\u{1b}[31mred\n")
    #expect(client.readLine() == "error unknown-command '?[31mred' (try help)")
    client.send("lock sideways\n")
    #expect(client.readLine()?.hasPrefix("error bad-argument unknown screen orientation 'sideways'") == true)
    client.send("\n\r\n")
    client.send("ping\n")
    #expect(client.readLine() == "pong", "empty lines get no reply")

    client.send(String(repeating: "x", count: 5000))
    #expect(client.readLine() == "error line-too-long lines are at most 1024 bytes")
    #expect(client.waitForClose())

    let halfLine = try TestClient(path: daemon.socket)
    halfLine.send("lock left")
    _ = halfLine.readLines(5)
    shutdown(halfLine.descriptor, Int32(SHUT_RDWR))

    bystander.send("ping\n")
    #expect(bystander.readLine() == "pong")
    #expect(try daemon.orientctl("get").stdout.contains("lock off"), "the half line must not have run")
    #expect(daemon.process.waitForExit(timeout: 0.1) == nil)
    #expect(daemon.stop() == 0)
  }

  @Test("The lock and allowed set survive a restart")
  func persistence() throws {
    let directory = try TestPaths.scratchDirectory()
    let first = try ServedDaemon(directory: directory)
    #expect(try first.orientctl("allow", "normal,left-up,right-up").status == 0)
    #expect(try first.orientctl("lock", "right-up").status == 0)
    #expect(first.stop() == 0)
    let saved = try String(contentsOfFile: first.statePath, encoding: .utf8)
    #expect(saved == "# orientd-state 1\nlock right-up\nallowed normal,left-up,right-up\n")

    // The saved set beats the config file's; only the command line beats the saved set.
    let config = directory + "/orientd.conf"
    try "allowed = normal\n".write(toFile: config, atomically: true, encoding: .utf8)
    let second = try ServedDaemon(extra: ["--config", config], directory: directory)
    let client = try TestClient(path: second.socket)
    #expect(
      client.readLines(5) == [
        "sensor online", "device normal", "orientation right-up", "lock right-up",
        "allowed normal,left-up,right-up",
      ])
    #expect(second.stop() == 0)
  }

  @Test("A corrupt state file gives a warning and the defaults, and is rewritten on the next change")
  func corruptState() throws {
    let directory = try TestPaths.scratchDirectory()
    try "lock upside-down\n\u{0}\u{1}garbage".write(
      toFile: directory + "/state", atomically: true, encoding: .utf8)
    let daemon = try ServedDaemon(directory: directory)
    #expect(daemon.process.stderr.contains("ignoring corrupt state file"))
    let client = try TestClient(path: daemon.socket)
    #expect(client.readLines(5) == normalSnapshot)
    #expect(try daemon.orientctl("lock").status == 0)
    #expect(try String(contentsOfFile: daemon.statePath, encoding: .utf8).contains("lock normal"))
    #expect(daemon.stop() == 0)
  }

  @Test("A stale socket file is replaced; a live one makes a second orientd exit 69")
  func staleAndLiveSockets() throws {
    let directory = try TestPaths.scratchDirectory()
    let socket = directory + "/s"
    // A socket file nobody listens on, as a crashed orientd leaves behind.
    let stale = Glibc.socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
    var address = sockaddr_un()
    address.sun_family = sa_family_t(AF_UNIX)
    withUnsafeMutableBytes(of: &address.sun_path) { bytes in
      for (index, byte) in socket.utf8.enumerated() { bytes[index] = byte }
    }
    _ = withUnsafePointer(to: &address) {
      $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
        bind(stale, $0, socklen_t(MemoryLayout<sockaddr_un>.size))
      }
    }
    close(stale)
    #expect(FileManager.default.fileExists(atPath: socket))

    let daemon = try ServedDaemon(directory: directory)
    let client = try TestClient(path: socket)
    #expect(client.readLines(5) == normalSnapshot)

    let second = try runToCompletion([
      TestPaths.orientd, "--demo", "--socket", socket, "--state", directory + "/state2",
    ])
    #expect(second.status == 69)
    #expect(second.stderr.contains("another orientd is listening on \(socket)"))
    client.send("ping\n")
    #expect(client.readLine() == "pong")
    #expect(daemon.stop() == 0)
  }

  @Test("A socket path that is a regular file is not replaced; missing parent directories are created")
  func socketPathChecks() throws {
    let directory = try TestPaths.scratchDirectory()
    try "precious".write(toFile: directory + "/file", atomically: true, encoding: .utf8)
    let refused = try runToCompletion([
      TestPaths.orientd, "--demo", "--socket", directory + "/file", "--state", directory + "/st",
    ])
    #expect(refused.status == 73)
    #expect(try String(contentsOfFile: directory + "/file", encoding: .utf8) == "precious")

    let nested = directory + "/a/b/s"
    let daemon = try ServedDaemon(extra: ["--socket", nested, "--socket-mode", "0600"], directory: directory)
    let attributes = try FileManager.default.attributesOfItem(atPath: nested)
    #expect((attributes[.posixPermissions] as? Int) == 0o600)
    let parent = try FileManager.default.attributesOfItem(atPath: directory + "/a/b")
    #expect((parent[.posixPermissions] as? Int) == 0o755)
    #expect(daemon.stop() == 0)
  }
}

/// VmRSS of a process in kB.
func residentKilobytes(of pid: pid_t) -> Int? {
  guard let status = try? String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8) else { return nil }
  for line in status.split(separator: "\n") where line.hasPrefix("VmRSS:") {
    return Int(line.split(separator: " ", omittingEmptySubsequences: true)[1])
  }
  return nil
}
