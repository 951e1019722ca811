import OrientCore
import OrientSystem

/// Latency from a scan written to the device node to its orientation event at a subscriber.
func bufferLatency(orientd: String, umockdev: String, changes: Int) throws -> (p50: Duration?, p99: Duration?)
{
  let daemon = try FakeSensorDaemon(
    orientd: orientd, umockdev: umockdev, arguments: ["--mode", "buffer", "--settle", "0"])
  defer { daemon.stop() }
  for _ in 0..<200 where !daemon.logContains("capture mode buffer") { pause(for: .milliseconds(10)) }
  let subscriber = try BenchClient(path: daemon.socket)
  subscriber.readGreeting()
  var latencies: [Duration] = []
  for change in 0..<(changes + 5) {
    let start = MonotonicInstant.now
    if change % 2 == 0 { daemon.writeScan(256, 0, 0) } else { daemon.writeScan(0, -256, 0) }
    var seen = false
    while !seen {
      for line in subscriber.readAvailable() where line.hasPrefix("orientation ") { seen = true }
    }
    if change >= 5 { latencies.append(start.elapsed) }
  }
  return (percentile(latencies, 0.5), percentile(latencies, 0.99))
}

/// Wake-ups (voluntary context switches of every thread) per second over `length` with
/// the sensor silent in buffer mode, or polled as `arguments` say.
func wakeUps(orientd: String, umockdev: String, arguments: [String], over length: Duration, settle: String)
  throws -> Double
{
  let daemon = try FakeSensorDaemon(orientd: orientd, umockdev: umockdev, arguments: arguments)
  defer { daemon.stop() }
  for _ in 0..<300 where !daemon.logContains(settle) { pause(for: .milliseconds(10)) }
  // Past start-up and the first change.
  pause(for: .seconds(1))
  let before = daemon.voluntarySwitches
  pause(for: length)
  return Double(daemon.voluntarySwitches - before) / length.inSeconds
}
