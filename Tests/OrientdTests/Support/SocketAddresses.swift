import Foundation

/// Calls `body` with a `sockaddr_un` for `path` and its length.
func withUnixAddress<Result>(_ path: String, _ body: (UnsafePointer<sockaddr>, socklen_t) -> Result) -> Result
{
  var address = sockaddr_un()
  address.sun_family = sa_family_t(AF_UNIX)
  withUnsafeMutableBytes(of: &address.sun_path) { bytes in
    for (index, byte) in path.utf8.enumerated() { bytes[index] = byte }
  }
  return withUnsafePointer(to: &address) {
    $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
      body($0, socklen_t(MemoryLayout<sockaddr_un>.size))
    }
  }
}

/// Calls `body` with a `sockaddr_in` for 127.0.0.1:`port` and its length.
func withLoopbackAddress<Result>(port: UInt16, _ body: (UnsafePointer<sockaddr>, socklen_t) -> Result)
  -> Result
{
  var address = sockaddr_in()
  address.sin_family = sa_family_t(AF_INET)
  address.sin_port = port.bigEndian
  address.sin_addr.s_addr = UInt32(0x7F00_0001).bigEndian
  return withUnsafePointer(to: &address) {
    $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
      body($0, socklen_t(MemoryLayout<sockaddr_in>.size))
    }
  }
}
