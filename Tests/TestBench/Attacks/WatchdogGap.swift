import Glibc
import OrientCore
import OrientSystem

/// Plays the service manager's notify socket at PATH for SECONDS and prints the longest gap
/// between two `WATCHDOG=1` messages: how late the daemon's main loop got round to its
/// watchdog timer while under attack.
let watchdogGap = Attack(usage: "PATH SECONDS") { arguments in
  let arguments = AttackArguments(arguments)
  let path = try arguments.text(0, "PATH")
  let length = try arguments.duration(1, "SECONDS")
  let fd = socket(AF_UNIX, Int32(SOCK_DGRAM.rawValue | SOCK_CLOEXEC.rawValue), 0)
  guard fd >= 0 else { throw SystemError("socket", code: .current) }
  let socket = FileDescriptor(adopting: fd)
  var address = sockaddr_un()
  address.sun_family = sa_family_t(AF_UNIX)
  let bytes = Array(path.utf8)
  guard bytes.count < MemoryLayout.size(ofValue: address.sun_path) else {
    throw AttackUsage(description: "PATH is too long for a socket")
  }
  withUnsafeMutableBytes(of: &address.sun_path) { $0.copyBytes(from: bytes) }
  let bound = withUnsafePointer(to: &address) {
    $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
      bind(socket.rawValue, $0, socklen_t(MemoryLayout<sockaddr_un>.size))
    }
  }
  guard bound == 0 else { throw SystemError("bind \(path)", code: .current) }
  figure("listening", path)
  let end = MonotonicInstant.now + length
  var last: MonotonicInstant?
  var longest = Duration.zero
  var count = 0
  var buffer = [UInt8](repeating: 0, count: 4096)
  while MonotonicInstant.now < end {
    guard
      let ready = try? Readiness.wait(
        [(socket.rawValue, .readable)], timeout: end - MonotonicInstant.now),
      ready.first?.contains(.readable) == true,
      let received = try? buffer.withUnsafeMutableBytes({ try socket.receive(into: $0) })
    else { continue }
    guard String(decoding: buffer[0..<received], as: UTF8.self).contains("WATCHDOG=1") else { continue }
    let now = MonotonicInstant.now
    if let last { longest = max(longest, now - last) }
    last = now
    count += 1
  }
  figure("watchdog_messages", String(count))
  figure("longest_gap_ms", fixed(longest.inMilliseconds, 1))
}
