import OrientSystem

/// A usage mistake in an attack's arguments.
struct AttackUsage: Error, CustomStringConvertible {
  let description: String
}

/// The attack's arguments by position, with errors that name what is missing.
struct AttackArguments {
  let values: [String]
  init(_ values: [String]) { self.values = values }

  func text(_ index: Int, _ name: String) throws(AttackUsage) -> String {
    guard index < values.count else { throw AttackUsage(description: "missing \(name)") }
    return values[index]
  }

  func number(_ index: Int, _ name: String) throws(AttackUsage) -> Int {
    guard let value = Int(try text(index, name)), value >= 0 else {
      throw AttackUsage(description: "\(name) must be a whole number")
    }
    return value
  }

  /// The argument at `index` as a length of time, given in (possibly fractional) seconds.
  func duration(_ index: Int, _ name: String) throws(AttackUsage) -> Duration {
    guard let value = Double(try text(index, name)), value >= 0, value.isFinite else {
      throw AttackUsage(description: "\(name) must be a number of seconds")
    }
    return .seconds(value)
  }
}

/// Prints one `name value` figure line on stdout.
func figure(_ name: String, _ value: String) {
  StandardStream.output.report("\(name) \(value)\n")
}

/// Reads one line from a blocking-or-not socket within `timeout`; nil on close or timeout.
func readLine(from socket: borrowing FileDescriptor, timeout: Duration) -> String? {
  var line: [UInt8] = []
  var byte: [UInt8] = [0]
  let end = MonotonicInstant.now + timeout
  while true {
    let left = end - MonotonicInstant.now
    guard left > .zero else { return nil }
    let ready = try? Readiness.wait([(socket.rawValue, .readable)], timeout: left)
    guard let events = ready?.first, !events.isEmpty else { continue }
    guard let count = try? byte.withUnsafeMutableBytes({ try socket.receive(into: $0) }) else {
      if events.contains(.hangUp) || events.contains(.error) { return nil }
      continue
    }
    if count == 0 { return nil }
    if byte[0] == 0x0A { return String(decoding: line, as: UTF8.self) }
    line.append(byte[0])
  }
}

/// Blocks until the process is killed: attacks that hold resources end this way.
func holdUntilKilled() -> Never {
  while true { _ = try? Readiness.wait([], timeout: nil) }
}

/// An owned socket that can sit in an array.
final class HeldSocket {
  let socket: FileDescriptor
  init(_ socket: consuming FileDescriptor) { self.socket = socket }
  var rawValue: Int32 { socket.rawValue }
}
