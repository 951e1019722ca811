import Foundation
import Testing

/// Reduced in the test run; `benchmarks/load-and-faults.sh` sets ORIENTD_FULL_LOAD=1 for the
/// full size (1000 clients for 60 s, 100 crash rounds).
let fullLoad = ProcessInfo.processInfo.environment["ORIENTD_FULL_LOAD"] == "1"

/// Raises this process's open-file limit so it can hold many client sockets.
func allowManyDescriptors() {
  var limit = rlimit()
  getrlimit(Int32(RLIMIT_NOFILE.rawValue), &limit)
  limit.rlim_cur = limit.rlim_max
  setrlimit(Int32(RLIMIT_NOFILE.rawValue), &limit)
}

/// A non-blocking client that remembers the last value of each state key it has read.
final class LoadClient {
  let descriptor: Int32
  var partial: [UInt8] = []
  var last: [String: String] = [:]
  var lines = 0

  init?(path: String) {
    guard let client = try? TestClient(path: path) else { return nil }
    descriptor = dup(client.descriptor)
    _ = fcntl(descriptor, F_SETFL, fcntl(descriptor, F_GETFL) | O_NONBLOCK)
  }

  deinit { close(descriptor) }

  /// Reads whatever is waiting; false once the server closed the connection.
  ///
  /// Lines are cut out of what arrived in one pass, so a client that fell behind catches up
  /// in time proportional to what it reads.
  @discardableResult
  func drain() -> Bool {
    var open = true
    while true {
      let count = Self.chunk.withUnsafeMutableBytes { recv(descriptor, $0.baseAddress, $0.count, 0) }
      if count == 0 { open = false }
      if count <= 0 {
        if count < 0 { open = errno == EAGAIN || errno == EWOULDBLOCK || errno == EINTR }
        break
      }
      partial += Self.chunk[0..<count]
    }
    var start = 0
    while let newline = partial[start...].firstIndex(of: 0x0A) {
      let line = partial[start..<newline]
      start = newline + 1
      lines += 1
      guard let space = line.firstIndex(of: 0x20) else { continue }
      last[String(decoding: line[..<space], as: UTF8.self)] = String(
        decoding: line[(space + 1)...], as: UTF8.self)
    }
    partial.removeFirst(start)
    return open
  }

  /// One receive buffer for every client; the load test runs on one thread.
  nonisolated(unsafe) private static var chunk = [UInt8](repeating: 0, count: 65536)
}

@Suite("Load and faults", .serialized, .scratch(serialized: true))
struct LoadAndFaultTests {
  @Test(
    "Clients churning under 100 changes a second leak no descriptors, stay bounded, and end on the final state"
  )
  func churnUnderLoad() throws {
    allowManyDescriptors()
    let slots = fullLoad ? 1000 : 150
    let seconds = fullLoad ? 60 : 4
    var trace = TraceBuilder(stepMilliseconds: 10)
    for step in 0..<(seconds * 100) {
      if step % 2 == 0 { trace.add(0, -1, 0) } else { trace.add(1, 0, 0) }
    }
    let directory = try Scratch.current().makeDirectory()
    let socket = directory + "/s"
    let daemon = try TestProcess([
      TestPaths.orientd, "--replay", try trace.write(), "--settle", "0", "--socket", socket, "--state",
      directory + "/st", "--max-clients", "\(slots + 50)",
      // The tenth that never reads must outlast a slow run: on a loaded machine the test can
      // take longer than the default 30 s after which such clients are dropped as idle.
      "--idle-timeout", "86400",
    ])
    try #require(daemon.waitFor("listening on", inStderr: true))
    // Its sockets with no client connected: the listening socket is the last one it opens.
    let descriptorsBefore = openSockets(of: daemon.pid)
    var clients: [LoadClient?] = (0..<slots).map { _ in LoadClient(path: socket) }
    var churned = 0
    var peakRSS = 0
    let end = deadline(in: Double(seconds))
    var round = 0
    while ContinuousClock.now < end {
      round += 1
      // A tenth of the slots never read; the others read every round.
      for (index, client) in clients.enumerated() where index % 10 != 0 { client?.drain() }
      for _ in 0..<20 {
        let slot = Int.random(in: 0..<slots)
        clients[slot] = nil
        clients[slot] = LoadClient(path: socket)
        churned += 1
      }
      if round % 20 == 0 { peakRSS = max(peakRSS, residentKilobytes(of: daemon.pid) ?? 0) }
      // Paces the churn; nothing is awaited here.
      usleep(2_000)
    }
    // At least once, however few rounds a loaded machine allowed.
    peakRSS = max(peakRSS, residentKilobytes(of: daemon.pid) ?? 0)
    // Let the replay finish and the state settle, then read everything that is left.
    try #require(daemon.waitFor("finished; keeping the last state", inStderr: true))
    let final = try #require(
      try runToCompletion([TestPaths.orientctl, "--socket", socket, "get"]).stdout.split(separator: "\n")
        .first { $0.hasPrefix("orientation ") })
    var live = clients.compactMap { $0 }
    // Every subscriber catches up with the final state, or has been closed by the server.
    var open = Array(repeating: true, count: live.count)
    waitUntil {
      for (index, client) in live.enumerated() where open[index] { open[index] = client.drain() }
      return zip(live, open).allSatisfy { client, isOpen in
        !isOpen || (client.partial.isEmpty && "orientation " + (client.last["orientation"] ?? "") == final)
      }
    }
    let connected = open.filter { $0 }.count
    let agreeing = zip(live, open).filter { client, isOpen in
      isOpen && "orientation " + (client.last["orientation"] ?? "") == final
    }.count
    #expect(
      connected > slots * 9 / 10,
      "\(connected) of \(slots) subscribers are still connected; orientd said:\n\(daemon.stderr)")
    #expect(agreeing == connected, "\(agreeing) of \(connected) subscribers end on '\(final)'")
    clients = []
    live = []
    // orientd closes its ends as it reads the hang-ups; a leak keeps one open for good.
    waitUntil { openSockets(of: daemon.pid) == descriptorsBefore }
    let descriptorsAfter = openSockets(of: daemon.pid)
    #expect(
      descriptorsAfter == descriptorsBefore, "sockets before \(descriptorsBefore), after \(descriptorsAfter)")
    #expect(peakRSS > 0 && peakRSS < 64_000, "orientd peaked at \(peakRSS) kB")
    print(
      "load: \(slots) slots, \(churned) reconnects in \(seconds) s, peak RSS \(peakRSS) kB, fds \(descriptorsBefore)"
    )
    daemon.signal(SIGTERM)
    #expect(daemon.waitForExit() == 0)
  }

  @Test(
    "After kill -9 at random points while locks stream, the state file is intact and holds the last lock that got ok, or the one in flight"
  )
  func crashWhileLocking() throws {
    let rounds = fullLoad ? 100 : 8
    let directory = try Scratch.current().makeDirectory()
    let targets = ["normal", "left-up", "bottom-up", "right-up"]
    for round in 0..<rounds {
      let daemon = try ServedDaemon(directory: directory)
      let client = try TestClient(path: daemon.socket)
      _ = client.readLines(greetingLines)
      var acknowledged: String? = nil
      let killAt = deadline(in: Double.random(in: 0.05...0.3))
      var index = round
      repeat {
        let target = targets[index % 4]
        index += 1
        client.send("lock \(target)\n")
        guard client.readLines(through: "ok").last == "ok" else {
          Issue.record("round \(round): no ok for lock \(target)")
          break
        }
        acknowledged = target
      } while ContinuousClock.now < killAt
      // One more command that may or may not be persisted before the kill.
      let unsure = targets[index % 4]
      client.send("lock \(unsure)\n")
      daemon.process.signal(SIGKILL)
      try #require(daemon.process.waitForExit() == 128 + SIGKILL)
      let saved = try String(contentsOfFile: daemon.statePath, encoding: .utf8)
      let lock = saved.split(separator: "\n").first { $0.hasPrefix("lock ") }.map { String($0.dropFirst(5)) }
      #expect(saved.hasPrefix("# orientd-state 1\n"), "round \(round): \(saved)")
      #expect(
        lock == acknowledged || lock == unsure,
        "round \(round): lock \(lock ?? "none"), acknowledged \(acknowledged ?? "none")")
      unlink(daemon.socket)
      // The next start reads it back.
      let restarted = try ServedDaemon(directory: directory)
      #expect(completeLines(try restarted.orientctl("get").stdout).contains("lock \(lock ?? "off")"))
      #expect(restarted.stop() == 0)
    }
  }

  @Test("A sensor removed and restored again and again goes offline and online every time, served throughout")
  func sensorFlapping() throws {
    let rounds = fullLoad ? 20 : 3
    let device = FakeDevice.accelerometer(raw: (256, 0, 0))
    let (run, socket) = try servingFakeSensor(
      [device], extra: ["--interval", "20", "--settle", "0"], ready: "info: orientation left-up")
    let subscriber = try TestClient(path: socket)
    _ = subscriber.readLines(greetingLines)
    for _ in 0..<rounds {
      try run.unplug()
      #expect(subscriber.readLine() == "sensor offline")
      subscriber.send("ping\n")
      #expect(subscriber.readLine() == "pong")
      try run.plug()
      #expect(subscriber.readLine() == "sensor online")
    }
    #expect(run.stop() == 0)
  }

  @Test("A hook that hangs never stalls the daemon, and the changes meanwhile coalesce into one run")
  func hangingHookUnderChanges() throws {
    let directory = try Scratch.current().makeDirectory()
    let started = directory + "/started.log"
    let sleeper = try scratchSleeper()
    // Each run notes its pid and transition, then hangs until the timeout kills it.
    let daemon = try ServedDaemon(
      extra: [
        "--hook", "echo \"$$ $ORIENTD_PREVIOUS>$ORIENTD_ORIENTATION\" >> \(started); exec \(sleeper) 300",
        "--hook-timeout", "8",
      ], directory: directory)
    let first = try #require(waitForLines(inFile: started, 1).first)
    #expect(first.hasSuffix(" undefined>normal"))
    let hungPID = try #require(parsePID(String(first.prefix { $0 != " " }), from: started))
    // Eight clients turn five times each: a client's next command waits for its last change
    // to be saved (a few saves a second), so they turn side by side.
    let clients = try (0..<8).map { _ in try TestClient(path: daemon.socket) }
    for client in clients {
      _ = client.readLines(greetingLines)
      client.send(String(repeating: "rotate cw\n", count: 5))
    }
    for client in clients {
      var oks = 0
      while oks < 5, let line = client.readLine() {
        if line == "ok" { oks += 1 }
      }
      #expect(oks == 5)
    }
    // All 40 were answered while the first run still hung.
    try #require(
      isAlive(hungPID), "the hook run ended before the commands were done; the test proves nothing")
    #expect(daemon.process.waitFor("took longer than 8.0 s and was killed", inStderr: true))
    // The 40 changes lead to one more run, with only the latest: 40 turns end on normal.
    let runs = waitForLines(inFile: started, 2)
    #expect(runs.count == 2 && runs[1].hasSuffix(" right-up>normal"), "\(runs)")
    #expect(daemon.stop() == 0)
    // orientd leaves a running hook behind when it exits; end it here.
    killAll(processes(running: sleeper))
  }

  @Test("When the state file's disk is full, the error is logged and the daemon keeps serving")
  func diskFull() throws {
    try #require(getuid() == 0, "mounting a tmpfs needs root")
    let scratch = try Scratch.current()
    let mountPoint = scratch.path("tiny")
    try FileManager.default.createDirectory(atPath: mountPoint, withIntermediateDirectories: true)
    let mount = try runToCompletion(["/bin/mount", "-t", "tmpfs", "-o", "size=4k", "tmpfs", mountPoint])
    try #require(mount.status == 0, "cannot mount a tmpfs: \(mount.stderr)")
    defer { _ = try? runToCompletion(["/bin/umount", mountPoint]) }
    // Fill it so the state file cannot be written.
    _ = try runToCompletion(["/bin/sh", "-c", "cat /dev/zero > \(mountPoint)/filler 2>/dev/null; true"])
    let daemon = try ServedDaemon(extra: ["--state", mountPoint + "/state"])
    #expect(try daemon.orientctl("lock", "left-up").status == 0)
    #expect(daemon.process.waitFor("cannot save the state to \(mountPoint)/state", inStderr: true))
    let state = try daemon.orientctl("get")
    #expect(completeLines(state.stdout).contains("lock left-up"), "the lock holds in memory")
    #expect(try daemon.orientctl("unlock").status == 0)
    #expect(daemon.stop() == 0)
  }
}
