import CLinux

/// Giving freed heap memory back to the kernel.
public enum MemoryRelease {
  /// Returns the free pages of every malloc arena to the kernel (`malloc_trim(0)`).
  ///
  /// glibc keeps freed memory for reuse; after a one-off burst of allocations, such as a
  /// large remote IIO context that was refused, this is what makes resident memory drop back.
  public static func trimHeap() { _ = malloc_trim(0) }
}
