import Glibc

/// The monotonic clock, the only clock the daemon reads.
public enum Clock {
  /// Nanoseconds on CLOCK_MONOTONIC.
  public static var monotonicNanoseconds: UInt64 {
    var now = timespec()
    clock_gettime(CLOCK_MONOTONIC, &now)
    return UInt64(now.tv_sec) * 1_000_000_000 + UInt64(now.tv_nsec)
  }
}
