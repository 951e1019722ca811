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
      let ready = clinux_epoll_wait(epoll, &flags, &tokens, 64, 5_000)
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

/// Resident memory of the daemon idle, and with `count` idle clients connected.
func memoryPerClient(daemon: DaemonProcess, count: Int) throws -> (idle: Int, loaded: Int) {
  usleep(300_000)
  let idle = daemon.residentKilobytes
  let clients = try (0..<count).map { _ in try BenchClient(path: daemon.socket) }
  for client in clients { _ = client.readLines(5) }
  usleep(300_000)
  let loaded = daemon.residentKilobytes
  consume(clients)
  return (idle, loaded)
}
