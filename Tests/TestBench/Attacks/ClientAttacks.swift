import OrientCore
import OrientSystem

// Attacks a hostile local user can make with nothing but a connection to the socket.

/// Sends `ping`s as fast as the daemon reads them while reading its replies more slowly
/// (4 KiB every 5 ms on average), so that replies always wait, until it has read BYTES of replies or
/// TIMEOUT seconds passed: a daemon that keeps messages it already sent grows without bound.
let slowReader = Attack(usage: "SOCKET BYTES TIMEOUT") { arguments in
  let arguments = AttackArguments(arguments)
  let socket = try UnixSocket.connect(path: try arguments.text(0, "SOCKET"), nonBlocking: true)
  let target = try arguments.number(1, "BYTES")
  let end = MonotonicInstant.now + (try arguments.duration(2, "TIMEOUT"))
  let pings = [UInt8](String(repeating: "ping\n", count: 200).utf8)
  var sent = 0
  var received = 0
  var chunk = [UInt8](repeating: 0, count: 4096)
  var nextRead = MonotonicInstant.now
  while received < target, MonotonicInstant.now < end {
    if let count = try? socket.send(pings[...]) { sent += count }
    // A chunk per 5 ms of the attack's time, whenever this loop gets to run: on a loaded
    // machine it runs late, and reads what it is behind by, so the pace is the same on
    // average and the pongs through orientd's queue add up within the timeout. The debt is
    // capped at 64 chunks: a reader that caught up with everything at once would not be slow.
    let now = MonotonicInstant.now
    if now - nextRead > .milliseconds(320) { nextRead = now + .milliseconds(-320) }
    var chunks = 0
    while MonotonicInstant.now >= nextRead, chunks < 64 {
      guard let count = try? chunk.withUnsafeMutableBytes({ try socket.receive(into: $0) }), count > 0 else {
        break
      }
      received += count
      nextRead = nextRead + .milliseconds(5)
      chunks += 1
    }
    _ = try? Readiness.wait([(socket.rawValue, .writable)], timeout: .milliseconds(5))
  }
  figure("sent_bytes", String(sent))
  figure("read_bytes", String(received))
}

/// Opens COUNT connections and holds them: each one's first line says whether it was
/// served (a state line) or turned away (`error too-many-clients ...`).
let holdConnections = Attack(usage: "SOCKET COUNT") { arguments in
  let arguments = AttackArguments(arguments)
  let path = try arguments.text(0, "SOCKET")
  var held: [HeldSocket] = []
  var refused = 0
  var refusal = ""
  for _ in 0..<(try arguments.number(1, "COUNT")) {
    let socket = try UnixSocket.connect(path: path)
    let first = readLine(from: socket, timeout: .seconds(5)) ?? "(closed)"
    if first.hasPrefix("error") {
      refused += 1
      refusal = first
    } else {
      held.append(HeldSocket(socket))
    }
  }
  figure("held", String(held.count))
  figure("refused", String(refused))
  if !refusal.isEmpty { figure("refusal", refusal) }
  holdUntilKilled()
}

/// Connects COUNT times, each time sending LINE (REPEAT times, once by default) and closing
/// at once, without reading: a daemon that drops a client on hang-up before reading it loses
/// the command, and one that serves a closed connection without limit turns it into a flood.
let sendAndClose = Attack(usage: "SOCKET COUNT LINE [REPEAT]") { arguments in
  let arguments = AttackArguments(arguments)
  let path = try arguments.text(0, "SOCKET")
  let repeats = arguments.values.count > 3 ? try arguments.number(3, "REPEAT") : 1
  let line = String(repeating: try arguments.text(2, "LINE") + "\n", count: repeats)
  for _ in 0..<(try arguments.number(1, "COUNT")) {
    let socket = try UnixSocket.connect(path: path, nonBlocking: true)
    // What the socket takes at once: the rest would have to wait for the daemon.
    _ = try? socket.send(Array(line.utf8)[...])
    socket.close()
  }
  figure("sent", String(try arguments.number(1, "COUNT")))
}

/// CONNECTIONS connections each send COMMAND, wait for its reply and send it again, for
/// SECONDS: a flood of control commands. COMMAND may hold alternatives separated by `|`
/// (`mode tablet|mode laptop`), which each connection sends in turn.
let controlFlood = Attack(usage: "SOCKET CONNECTIONS SECONDS COMMAND[|COMMAND...]") { arguments in
  let arguments = AttackArguments(arguments)
  let path = try arguments.text(0, "SOCKET")
  let commands = try arguments.text(3, "COMMAND").split(separator: "|").map { Array(($0 + "\n").utf8) }
  guard !commands.isEmpty else { throw AttackUsage(description: "COMMAND must not be empty") }
  var sockets: [HeldSocket] = []
  for _ in 0..<(try arguments.number(1, "CONNECTIONS")) {
    sockets.append(HeldSocket(try UnixSocket.connect(path: path, nonBlocking: true)))
  }
  var pending = [[UInt8]](repeating: [], count: sockets.count)
  var sent = [Int](repeating: 0, count: sockets.count)
  var replies = 0
  var errors = 0
  /// The next command of connection `index`.
  func next(_ index: Int) -> ArraySlice<UInt8> {
    defer { sent[index] += 1 }
    return commands[sent[index] % commands.count][...]
  }
  for index in sockets.indices { _ = try sockets[index].socket.send(next(index)) }
  let end = MonotonicInstant.now + (try arguments.duration(2, "SECONDS"))
  var chunk = [UInt8](repeating: 0, count: 4096)
  while MonotonicInstant.now < end {
    let ready = try Readiness.wait(
      sockets.map { ($0.rawValue, IOEvents.readable) }, timeout: .milliseconds(100))
    for index in sockets.indices where !ready[index].isEmpty {
      guard let count = try? chunk.withUnsafeMutableBytes({ try sockets[index].socket.receive(into: $0) }),
        count > 0
      else { continue }
      pending[index] += chunk[0..<count]
      while let newline = pending[index].firstIndex(of: 0x0A) {
        let line = String(decoding: pending[index][..<newline], as: UTF8.self)
        pending[index].removeSubrange(...newline)
        guard line == "ok" || line.hasPrefix("ok ") || line.hasPrefix("error ") else { continue }
        if line.hasPrefix("error ") { errors += 1 } else { replies += 1 }
        _ = try? sockets[index].socket.send(next(index))
      }
    }
  }
  figure("replies", String(replies))
  figure("errors", String(errors))
}

/// Opens COUNT connections that never send or read, and reports how many the daemon
/// closed within SECONDS.
let idleConnections = Attack(usage: "SOCKET COUNT SECONDS") { arguments in
  let arguments = AttackArguments(arguments)
  let path = try arguments.text(0, "SOCKET")
  var sockets: [HeldSocket] = []
  for _ in 0..<(try arguments.number(1, "COUNT")) {
    sockets.append(HeldSocket(try UnixSocket.connect(path: path)))
  }
  figure("opened", String(sockets.count))
  var closed = Set<Int>()
  let end = MonotonicInstant.now + (try arguments.duration(2, "SECONDS"))
  while closed.count < sockets.count, MonotonicInstant.now < end {
    // Hang-up is reported without reading, so the greeting stays unread.
    let ready = try Readiness.wait(sockets.map { ($0.rawValue, IOEvents()) }, timeout: .milliseconds(100))
    for index in sockets.indices where ready[index].contains(.hangUp) { closed.insert(index) }
  }
  figure("closed", String(closed.count))
}

/// Sends COUNT `ping`s (or COMMANDs, in turn), one every INTERVAL milliseconds, and prints
/// the round-trip times' p50, p99 and max, and how many went unanswered.
let pingLatency = Attack(usage: "SOCKET COUNT INTERVAL_MS [COMMAND[|COMMAND...]]") { arguments in
  let arguments = AttackArguments(arguments)
  let socket = try UnixSocket.connect(path: try arguments.text(0, "SOCKET"))
  // Without COMMAND, `ping`; else each command in turn, answered by `ok` or `error ...`.
  let commands =
    arguments.values.count > 3 ? try arguments.text(3, "COMMAND").split(separator: "|").map(String.init) : []
  let interval = Duration.milliseconds(try arguments.number(2, "INTERVAL_MS"))
  var times: [Duration] = []
  var lost = 0
  for index in 0..<(try arguments.number(1, "COUNT")) {
    let start = MonotonicInstant.now
    try socket.sendAll((commands.isEmpty ? "ping" : commands[index % commands.count]) + "\n")
    var answered = false
    // The greeting's state lines, and change lines, come before the answer and are skipped.
    while let line = readLine(from: socket, timeout: .seconds(30)) {
      if commands.isEmpty ? line == "pong" : line == "ok" || line.hasPrefix("ok ") || line.hasPrefix("error ")
      {
        answered = true
        break
      }
    }
    guard answered else {
      lost += 1
      break
    }
    times.append(start.elapsed)
    let rest = interval - start.elapsed
    if rest > .zero { _ = try? Readiness.wait([], timeout: rest) }
  }
  figure("pings", String(times.count))
  figure("lost", String(lost))
  guard !times.isEmpty else { return }
  let milliseconds = times.map(\.inMilliseconds)
  figure("p50_ms", fixed(percentile(milliseconds, 0.5), 2))
  figure("p99_ms", fixed(percentile(milliseconds, 0.99), 2))
  figure("max_ms", fixed(milliseconds.max() ?? 0, 2))
}
