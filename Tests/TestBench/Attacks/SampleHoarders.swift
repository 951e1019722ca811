import Glibc
import OrientCore
import OrientSystem

/// `sample-hoarders SOCKET COUNT [SECONDS]`: COUNT connections that each ask for every sample
/// (`samples raw`) and never read, with receive buffers as small as the kernel allows, so
/// orientd renders every sample for each of them and their backlogs fill at once. It prints
/// `connections COUNT` once all are subscribed. With SECONDS, it then measures for that long,
/// on two connections of its own, how late samples arrive (relative to the earliest one:
/// how far delivery falls behind the sensor) and how long a ping takes, and prints the
/// figures. Then it holds the connections until it is killed.
let sampleHoarders = Attack(
  usage: "SOCKET COUNT [SECONDS]: COUNT connections ask for every sample and never read, until killed"
) { arguments in
  guard (2...3).contains(arguments.count), let count = Int(arguments[1]), count > 0,
    let seconds = arguments.count == 3 ? Double(arguments[2]) : 0, seconds.isFinite
  else {
    throw SystemError("usage: sample-hoarders SOCKET COUNT [SECONDS]", code: .invalidArgument)
  }
  raiseOpenFileLimit(to: count + 64)
  for _ in 0..<count {
    let connection = try UnixSocket.connect(path: arguments[0])
    var size: Int32 = 1
    _ = setsockopt(connection.rawValue, SOL_SOCKET, SO_RCVBUF, &size, socklen_t(MemoryLayout<Int32>.size))
    try connection.sendAll("samples raw\n")
    // Held open, unread, until the process ends.
    _ = connection.release()
  }
  try StandardStream.output.write("connections \(count)\n")
  if seconds > 0 { try measureUnderHoarders(socket: arguments[0], for: .seconds(seconds)) }
  while true { pause() }
}

/// Reads every sample on one connection and pings on another for `length`; prints how late
/// samples came and how long pings took.
private func measureUnderHoarders(socket: String, for length: Duration) throws {
  let samples = try UnixSocket.connect(path: socket)
  try samples.sendAll("samples corrected\n")
  let pings = try UnixSocket.connect(path: socket)
  var sampleLines = LineSplitter(limit: 4096)
  var pingLines = LineSplitter(limit: 4096)
  var buffer = [UInt8](repeating: 0, count: 65536)
  // Arrival time (since the start) minus sample time: constant while delivery keeps up.
  var offsets: [Duration] = []
  var roundTrips: [Duration] = []
  var pingSent: MonotonicInstant?
  let start = MonotonicInstant.now
  let end = start + length
  func receive(_ connection: borrowing FileDescriptor, into splitter: inout LineSplitter) throws -> [String] {
    let count = try buffer.withUnsafeMutableBytes { try connection.receive(into: $0) } ?? 0
    guard count > 0 else { return [] }
    return buffer.withUnsafeBytes { bytes in
      splitter.append(UnsafeRawBufferPointer(rebasing: bytes[0..<count])).compactMap { piece in
        if case .line(let line) = piece { return String(decoding: line, as: UTF8.self) }
        return nil
      }
    }
  }
  while MonotonicInstant.now < end {
    if pingSent == nil {
      try pings.sendAll("ping\n")
      pingSent = .now
    }
    let ready = try Readiness.wait(
      [(samples.rawValue, .readable), (pings.rawValue, .readable)], timeout: .milliseconds(10))
    let arrival = MonotonicInstant.now
    if !ready[0].isEmpty {
      for line in try receive(samples, into: &sampleLines) where line.hasPrefix("sample ") {
        if let time = Double(line.split(separator: " ")[1]), time.isFinite {
          offsets.append((arrival - start) - .seconds(time))
        }
      }
    }
    if !ready[1].isEmpty, let sent = pingSent {
      for line in try receive(pings, into: &pingLines) where line == "pong" {
        roundTrips.append(arrival - sent)
        pingSent = nil
      }
    }
  }
  let earliest = offsets.min() ?? .zero
  let lags = offsets.map { ($0 - earliest).inMilliseconds }
  let milliseconds = roundTrips.map(\.inMilliseconds)
  var report = "samples-received \(offsets.count)\n"
  report +=
    "sample-lag-p50-ms \(fixed(median(lags), 1))\nsample-lag-p99-ms \(fixed(percentile(lags, 0.99), 1))\n"
  report += "sample-lag-max-ms \(fixed(lags.max() ?? 0, 1))\npings \(roundTrips.count)\n"
  report +=
    "ping-p50-ms \(fixed(median(milliseconds), 2))\nping-p99-ms \(fixed(percentile(milliseconds, 0.99), 2))\n"
  try StandardStream.output.write(report)
}
