import CLinux
import Glibc
import OrientSystem

/// Publish latency from a control command to each subscriber's receipt of the change.
struct LatencyResult {
  var subscribers: Int
  var p50: Double
  var p99: Double
}

/// Measures latency to `subscribers` clients over `iterations` rotations after a warm-up.
func publishLatency(daemon: DaemonProcess, subscribers: Int, iterations: Int) throws -> LatencyResult {
  let clients = try (0..<subscribers).map { _ in try BenchClient(path: daemon.socket) }
  for client in clients { _ = client.readLines(5) }
  let controller = try BenchClient(path: daemon.socket)
  _ = controller.readLines(5)
  let epoll = epoll_create1(Int32(EPOLL_CLOEXEC))
  defer { close(epoll) }
  for (index, client) in clients.enumerated() {
    _ = clinux_epoll_ctl(epoll, EPOLL_CTL_ADD, client.descriptor, UInt32(EPOLLIN.rawValue), UInt64(index))
  }
  var latencies: [Double] = []
  var flags = [UInt32](repeating: 0, count: 64)
  var tokens = [UInt64](repeating: 0, count: 64)
  let warmUp = 5
  for iteration in 0..<(warmUp + iterations) {
    var pending = subscribers
    var received = [Bool](repeating: false, count: subscribers)
    let start = now()
    controller.send("rotate cw\n")
    while pending > 0 {
      let ready = clinux_epoll_wait(epoll, &flags, &tokens, 64, 5_000_000_000)
      guard ready > 0 else { throw SystemError("subscribers stopped receiving", code: ETIMEDOUT) }
      let arrival = now()
      for slot in 0..<Int(ready) {
        let index = Int(tokens[slot])
        for line in clients[index].readAvailable() where line.hasPrefix("orientation ") && !received[index] {
          received[index] = true
          pending -= 1
          if iteration >= warmUp { latencies.append(arrival - start) }
        }
      }
    }
    _ = controller.readLines(3)
  }
  return LatencyResult(
    subscribers: subscribers, p50: percentile(latencies, 0.5), p99: percentile(latencies, 0.99))
}

/// Resident memory of the daemon idle, with a few clients, and with `count` idle clients.
///
/// The per-client cost is taken between the few and the many, so the code that serving a
/// first client faults back in is not counted as client memory.
func memoryPerClient(daemon: DaemonProcess, count: Int) throws -> (idle: Int, few: Int, loaded: Int) {
  // orientd settles its memory 2 s after its first change.
  usleep(2_500_000)
  let idle = daemon.residentKilobytes
  var clients = try (0..<10).map { _ in try BenchClient(path: daemon.socket) }
  for client in clients { _ = client.readLines(5) }
  usleep(300_000)
  let few = daemon.residentKilobytes
  clients += try (10..<count).map { _ in try BenchClient(path: daemon.socket) }
  for client in clients.dropFirst(10) { _ = client.readLines(5) }
  usleep(300_000)
  let loaded = daemon.residentKilobytes
  consume(clients)
  return (idle, few, loaded)
}
