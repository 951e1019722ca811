import CLinux

/// The monotonic clock, the only clock the daemon reads.
public enum Clock {
  /// Nanoseconds on CLOCK_MONOTONIC.
  public static var monotonicNanoseconds: UInt64 { clinux_monotonic_ns() }
}
