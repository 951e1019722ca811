import CLinux
import Glibc

/// Gives back the code pages that start-up touched and the daemon will not need again.
///
/// On a read fault the kernel maps up to 64 KiB of already-cached file pages around the
/// faulting page ("fault-around"). Start-up runs code scattered over the Swift runtime,
/// libiio and its dependencies, so some 3 MB of code ends up mapped although well under
/// 1 MB of it was run. Unmapping the code mappings once start-up is over lets the steady
/// state fault back in just the code it runs. The pages stay in the page cache; only this
/// process's resident set shrinks.
///
/// Only read-only executable mappings with no private (copy-on-write) pages are touched:
/// for those, dropping the mapping loses nothing, as they are re-read from the file.
public enum StartupPages {
  /// Unmaps clean executable file mappings; returns the kilobytes that were resident in them.
  @discardableResult
  public static func release() -> Int {
    guard let smaps = try? readTextFile("/proc/self/smaps") else { return 0 }
    var released = 0
    var candidate: (start: UInt, end: UInt)?
    var resident = 0
    func finish(anonymous: Int) {
      if let range = candidate, anonymous == 0 {
        let start = UnsafeMutableRawPointer(bitPattern: range.start)
        if madvise(start, Int(range.end - range.start), MADV_DONTNEED) == 0 { released += resident }
      }
      candidate = nil
    }
    for line in smaps.split(separator: "\n") {
      let fields = line.split(separator: " ", omittingEmptySubsequences: true)
      guard let first = fields.first else { continue }
      if first.contains("-"), !first.hasSuffix(":"), fields.count >= 6 {
        // A mapping header: "start-end perms offset dev inode path".
        let bounds = first.split(separator: "-")
        let isCode = fields[1] == "r-xp" && fields[5].hasPrefix("/")
        if isCode, bounds.count == 2, let start = UInt(bounds[0], radix: 16),
          let end = UInt(bounds[1], radix: 16)
        {
          candidate = (start, end)
        }
        resident = 0
      } else if first == "Rss:", fields.count >= 2 {
        resident = Int(fields[1]) ?? 0
      } else if first == "Anonymous:", fields.count >= 2 {
        finish(anonymous: Int(fields[1]) ?? 1)
      }
    }
    // Hand the heap used while starting (libiio's scan, this parse) back to the kernel too.
    malloc_trim(0)
    return released
  }
}
