import OrientSystem

/// Publish latency from a control command to each subscriber's receipt of the change.
struct LatencyResult {
  var subscribers: Int
  var p50: Duration?
  var p99: Duration?
}

/// Measures latency to `subscribers` clients over `iterations` rotations after a warm-up.
func publishLatency(daemon: DaemonProcess, subscribers: Int, iterations: Int) throws -> LatencyResult {
  let clients = try (0..<subscribers).map { _ in try BenchClient(path: daemon.socket) }
  for client in clients { client.readGreeting() }
  let controller = try BenchClient(path: daemon.socket)
  controller.readGreeting()
  let loop = try EventLoop()
  var latencies: [Duration] = []
  var received = [Bool](repeating: false, count: subscribers)
  var pending = 0
  var start = MonotonicInstant.now
  var measuring = false
  var watches: [Watch] = []
  for (index, client) in clients.enumerated() {
    watches.append(
      try loop.watch(client.socket.rawValue) { _ in
        let arrival = MonotonicInstant.now
        for line in client.readAvailable() where line.hasPrefix("orientation ") && !received[index] {
          received[index] = true
          pending -= 1
          if measuring { latencies.append(arrival - start) }
        }
        if pending == 0 { loop.stop() }
      })
  }
  var timedOut = false
  let deadline = LoopTimer(loop: loop) { _ in
    timedOut = true
    loop.stop()
  }
  let warmUp = 5
  for iteration in 0..<(warmUp + iterations) {
    received = [Bool](repeating: false, count: subscribers)
    pending = subscribers
    measuring = iteration >= warmUp
    start = .now
    controller.send("rotate cw\n")
    deadline.schedule(after: .seconds(5))
    try loop.run()
    guard !timedOut else { throw SystemError("subscribers stopped receiving", code: .timedOut) }
    _ = controller.readLines(3)
  }
  for watch in watches { loop.unwatch(watch) }
  return LatencyResult(
    subscribers: subscribers, p50: percentile(latencies, 0.5), p99: percentile(latencies, 0.99))
}

/// The daemon's memory idle, with a few clients, and with `count` idle clients.
///
/// The per-client cost is taken between the few and the many, so the code that serving a
/// first client faults in is not counted as client memory.
func memoryPerClient(daemon: DaemonProcess, count: Int) throws -> (
  idle: ProcessMemory, few: ProcessMemory, loaded: ProcessMemory
) {
  let idle = daemon.memory
  var clients = try (0..<10).map { _ in try BenchClient(path: daemon.socket) }
  for client in clients { client.readGreeting() }
  let few = daemon.memory
  clients += try (10..<count).map { _ in try BenchClient(path: daemon.socket) }
  // Every client has had its snapshot: the daemon has set each one up.
  for client in clients.dropFirst(10) { client.readGreeting() }
  let loaded = daemon.memory
  consume(clients)
  return (idle, few, loaded)
}
