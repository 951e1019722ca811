import Glibc

/// A `sockaddr_un` for a path, the one place socket addresses are built.
///
/// A path starting with `@` names the abstract namespace (as `$NOTIFY_SOCKET` may).
struct UnixAddress: Sendable {
  private var storage = sockaddr_un()
  private let length: socklen_t

  /// The longest path `sun_path` holds, without its NUL.
  static let maximumPathLength = MemoryLayout.size(ofValue: sockaddr_un().sun_path) - 1

  /// The address of `path`; nil when it is empty or does not fit.
  init?(_ path: String) {
    let bytes = Array(path.utf8)
    guard !bytes.isEmpty, bytes.count <= Self.maximumPathLength else { return nil }
    storage.sun_family = sa_family_t(AF_UNIX)
    withUnsafeMutableBytes(of: &storage.sun_path) { sunPath in
      for (index, byte) in bytes.enumerated() { sunPath[index] = byte }
      if bytes[0] == UInt8(ascii: "@") { sunPath[0] = 0 }
    }
    // An abstract address is exactly as long as its name; a path one NUL longer.
    let pathOffset = MemoryLayout<sa_family_t>.size
    length = socklen_t(pathOffset + bytes.count + (bytes[0] == UInt8(ascii: "@") ? 0 : 1))
  }

  /// Calls `body` with the address as a `sockaddr` and its length.
  func withSocketAddress<Result>(_ body: (UnsafePointer<sockaddr>, socklen_t) -> Result) -> Result {
    withUnsafePointer(to: storage) {
      $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { body($0, length) }
    }
  }
}
