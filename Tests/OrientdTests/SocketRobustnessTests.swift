import Foundation
import Testing

@Suite("Socket permissions, limits and hostile clients", .scratch)
struct SocketRobustnessTests {
  /// A control group with one member that only orientd sees: copies of the host's /etc/group
  /// and /etc/passwd with both added, mounted over the originals in a private mount namespace
  /// that orientd runs in (tests run as root). The host's user database is never changed.
  /// Returns the command that starts orientd there, the group and the member.
  static func privateControlGroup() throws -> (
    launcher: [String], name: String, gid: UInt32, memberUID: UInt32
  ) {
    let unshare = try #require(TestPaths.which("unshare"), "unshare is missing (util-linux)")
    let (group, member) = ("otcontrol", "otmember")
    try #require(
      getgrnam(group) == nil && getpwnam(member) == nil, "the host already has \(group) or \(member)")
    // Numbers the host does not use, so no host user or group is mistaken for them.
    let gid = try #require((42_420...42_520).first { getgrgid($0) == nil })
    let uid = try #require((42_420...42_520).first { getpwuid($0) == nil })
    let directory = try Scratch.current().makeDirectory("users")
    try (fileText("/etc/group") + "\(group):x:\(gid):\(member)\n").write(
      toFile: directory + "/group", atomically: true, encoding: .utf8)
    try (fileText("/etc/passwd") + "\(member):x:\(uid):65534::/nonexistent:/usr/sbin/nologin\n").write(
      toFile: directory + "/passwd", atomically: true, encoding: .utf8)
    let launcher = [
      unshare, "--mount", "--propagation", "private", "/bin/sh", "-c",
      "mount --bind \"$1\" /etc/group && mount --bind \"$2\" /etc/passwd && shift 2 && exec \"$@\"", "sh",
      directory + "/group", directory + "/passwd",
    ]
    return (launcher, group, gid, uid)
  }

  @Test("With --control-group, another user is refused control but may read; group members may control")
  func controlGroupPermission() throws {
    try #require(getuid() == 0, "this test switches users and must run as root")
    let setpriv = try #require(TestPaths.which("setpriv"), "setpriv is missing (util-linux)")
    let group = try Self.privateControlGroup()
    let scratch = try Scratch.current()
    let directory = try scratch.makeDirectory()
    // Other users must reach the socket.
    chmod(scratch.path, 0o755)
    chmod(directory, 0o755)
    let daemon = try ServedDaemon(
      extra: ["--control-group", group.name], directory: directory, launcher: group.launcher)
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
    #expect(refused.status == 77)
    #expect(refused.stderr.contains("permission-denied"))
    let read = try orientctl(uid: nobody, gid: nobody, "get")
    #expect(read.status == 0)
    #expect(completeLines(read.stdout).contains("lock off"))

    // In the group through the process's own group id.
    #expect(try orientctl(uid: nobody, gid: group.gid, "lock", "left-up").status == 0)
    #expect(completeLines(try daemon.orientctl("get").stdout).contains("lock left-up"))
    // Listed in the group database but running without the group: see PeerGroupControlTests.
    #expect(try orientctl(uid: group.memberUID, gid: nobody, "unlock").status == 77)
    #expect(try daemon.orientctl("unlock").status == 0)
    // Root may always control.
    #expect(try daemon.orientctl("rotate", "cw").status == 0)
    #expect(completeLines(try daemon.orientctl("get").stdout).contains("lock left-up"))
    #expect(daemon.stop() == 0)
  }

  @Test("An unknown --control-group is a usage error")
  func unknownGroup() throws {
    let directory = try Scratch.current().makeDirectory()
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
    // 8000 turns from the sensor, one a millisecond: about 300 KB of events, far more than the
    // socket buffers and the 64 KiB per-client limit hold for the subscriber that does not
    // read. The first second holds still, so the clients are connected before the turns begin.
    var trace = TraceBuilder(stepMilliseconds: 1)
    for _ in 0..<1000 { trace.add(0, -1, 0) }
    for step in 0..<8000 {
      if step % 2 == 0 { trace.add(1, 0, 0) } else { trace.add(0, -1, 0) }
    }
    let directory = try Scratch.current().makeDirectory()
    let socket = directory + "/s"
    let daemon = try TestProcess([
      TestPaths.orientd, "--replay", try trace.write(), "--settle", "0", "--socket", socket, "--state",
      directory + "/st",
    ])
    try #require(daemon.waitFor("listening on", inStderr: true))
    let slow = try TestClient(path: socket)
    var size: Int32 = 4096
    setsockopt(slow.descriptor, SOL_SOCKET, SO_RCVBUF, &size, socklen_t(MemoryLayout<Int32>.size))
    let fast = try TestClient(path: socket)
    _ = fast.readLines(greetingLines)

    var received = 0
    var inOrder = true
    var lastOrientation: String?
    func take(_ line: String) {
      guard line.hasPrefix("orientation ") else { return }
      received += 1
      // Every turn reaches the fast subscriber: the orientation alternates, never repeats.
      if line == lastOrientation { inOrder = false }
      lastOrientation = line
    }
    while true {
      if let line = fast.readLine(timeout: 0.5) {
        take(line)
      } else if daemon.stderr.contains("finished; keeping the last state") {
        break
      }
    }
    for line in fast.linesBeforePong() { take(line) }
    #expect(received >= 7000, "the fast subscriber saw only \(received) turns")
    #expect(inOrder)
    #expect(lastOrientation == "orientation normal")
    let rss = try #require(residentKilobytes(of: daemon.pid))
    #expect(rss < 40_000, "orientd grew to \(rss) kB")
    #expect(daemon.waitFor("a subscriber is not reading", inStderr: true))

    // The slow subscriber, read at last, got a collapsed backlog that still ends in the current state.
    let lines = slow.linesBeforePong()
    var state: [String: String] = [:]
    for line in lines {
      let parts = line.split(separator: " ", maxSplits: 1).map(String.init)
      if parts.count == 2 { state[parts[0]] = parts[1] }
    }
    #expect(lines.count < received, "the backlog should have collapsed")
    #expect(state["orientation"] == "normal")
    #expect(state["device"] == "normal")
    daemon.signal(SIGTERM)
    #expect(daemon.waitForExit() == 0)
  }

  @Test("200 concurrent subscribers all receive one change")
  func twoHundredSubscribers() throws {
    let daemon = try ServedDaemon(extra: ["--max-clients", "300"])
    let subscribers = try (0..<200).map { _ in try TestClient(path: daemon.socket) }
    for subscriber in subscribers { #expect(subscriber.readLines(greetingLines) == normalSnapshot) }
    #expect(try daemon.orientctl("lock", "bottom-up").status == 0)
    var delivered = 0
    for subscriber in subscribers
    where subscriber.readLines(2) == ["lock bottom-up", "orientation bottom-up"] {
      delivered += 1
    }
    #expect(delivered == 200)
    #expect(daemon.stop() == 0)
  }

  @Test(
    "At --max-clients a newcomer takes the slot of a client that has just left, however the hang-up queues")
  func slotOfDepartedClient() throws {
    let daemon = try ServedDaemon(extra: ["--max-clients", "2"])
    var leaving: TestClient? = try TestClient(path: daemon.socket)
    let staying = try TestClient(path: daemon.socket)
    #expect(leaving?.readLines(greetingLines) == normalSnapshot)
    #expect(staying.readLines(greetingLines) == normalSnapshot)
    // With orientd stopped, the newcomer connects before the other client hangs up, so the
    // listener is ready ahead of the hang-up when orientd runs again.
    daemon.process.signal(SIGSTOP)
    try #require(waitUntil { isStopped(daemon.process.pid) })
    let newcomer = try TestClient(path: daemon.socket)
    leaving?.hangUp()
    leaving = nil
    daemon.process.signal(SIGCONT)
    #expect(newcomer.readLines(greetingLines) == normalSnapshot)
    newcomer.send("ping\n")
    #expect(newcomer.readLine() == "pong")
    // The slot it took is the last: the next one is refused.
    let fourth = try TestClient(path: daemon.socket)
    #expect(fourth.readLine()?.hasPrefix("error too-many-clients") == true)
    #expect(daemon.stop() == 0)
  }

  @Test("A corrupt state file gives a warning and the defaults, and is rewritten on the next change")
  func corruptState() throws {
    let directory = try Scratch.current().makeDirectory()
    try "lock upside-down\n\u{0}\u{1}garbage".write(
      toFile: directory + "/state", atomically: true, encoding: .utf8)
    let daemon = try ServedDaemon(directory: directory)
    #expect(daemon.process.stderr.contains("ignoring corrupt state file"))
    let client = try TestClient(path: daemon.socket)
    #expect(client.readLines(greetingLines) == normalSnapshot)
    #expect(try daemon.orientctl("lock").status == 0)
    #expect(waitForFile(daemon.statePath, toContain: "\nlock normal\n"), "\(fileText(daemon.statePath))")
    #expect(daemon.stop() == 0)
  }

  @Test("A stale socket file is replaced; a live one makes a second orientd exit 69")
  func staleAndLiveSockets() throws {
    let directory = try Scratch.current().makeDirectory()
    let socket = directory + "/s"
    // A socket file nobody listens on, as a crashed orientd leaves behind.
    let stale = Glibc.socket(AF_UNIX, Int32(SOCK_STREAM.rawValue | SOCK_CLOEXEC.rawValue), 0)
    #expect(withUnixAddress(socket) { bind(stale, $0, $1) } == 0)
    close(stale)
    #expect(FileManager.default.fileExists(atPath: socket))

    let daemon = try ServedDaemon(directory: directory)
    let client = try TestClient(path: socket)
    #expect(client.readLines(greetingLines) == normalSnapshot)

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
    let directory = try Scratch.current().makeDirectory()
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
