import Foundation

/// Counts the writes to one file as they happen, from when it is made, whoever writes and
/// however: inotify on its directory reports each close of the file after a write
/// (`IN_CLOSE_WRITE`) and each new file renamed over it (`IN_MOVED_TO`). Read it before
/// 16384 events wait (the kernel's default queue).
final class FileWriteCounter {
  private let descriptor: Int32
  private let name: String
  private var seen = 0

  /// Watches the file at `path`.
  init(path: String) throws {
    name = (path as NSString).lastPathComponent
    descriptor = inotify_init1(Int32(IN_NONBLOCK | IN_CLOEXEC))
    guard descriptor >= 0 else { throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO) }
    let directory = (path as NSString).deletingLastPathComponent
    // Opens are watched too, though not counted: inotify merges identical events that wait
    // unread, and an open between two writes keeps them apart.
    guard inotify_add_watch(descriptor, directory, UInt32(IN_OPEN | IN_CLOSE_WRITE | IN_MOVED_TO)) >= 0 else {
      close(descriptor)
      throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO)
    }
  }

  deinit { close(descriptor) }

  /// The writes seen so far.
  var count: Int {
    var buffer = [UInt8](repeating: 0, count: 65536)
    let header = MemoryLayout<inotify_event>.size
    let lengthOffset = MemoryLayout<inotify_event>.offset(of: \.len)!
    let maskOffset = MemoryLayout<inotify_event>.offset(of: \.mask)!
    while true {
      let read = buffer.withUnsafeMutableBytes { Glibc.read(descriptor, $0.baseAddress, $0.count) }
      guard read > 0 else { break }
      var offset = 0
      while offset + header <= read {
        let length = Int(
          buffer.withUnsafeBytes { $0.loadUnaligned(fromByteOffset: offset + lengthOffset, as: UInt32.self) })
        let nameBytes = buffer[(offset + header)..<(offset + header + length)].prefix { $0 != 0 }
        let mask = buffer.withUnsafeBytes {
          $0.loadUnaligned(fromByteOffset: offset + maskOffset, as: UInt32.self)
        }
        if mask & UInt32(IN_CLOSE_WRITE | IN_MOVED_TO) != 0,
          String(decoding: nameBytes, as: UTF8.self) == name
        {
          seen += 1
        }
        offset += header + length
      }
    }
    return seen
  }
}
