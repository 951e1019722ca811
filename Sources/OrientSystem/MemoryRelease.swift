import CLinux

/// Giving freed heap memory back to the kernel.
package enum MemoryRelease {
  /// Returns the free pages of every malloc arena to the kernel (`malloc_trim(0)`).
  ///
  /// glibc keeps freed memory for reuse; after a one-off burst of allocations, such as a
  /// large remote IIO context that was refused, this is what makes resident memory drop back.
  package static func trimHeap() { _ = malloc_trim(0) }

  /// Makes every block of 128 KiB or more its own mapping, returned to the kernel when freed.
  ///
  /// glibc raises its threshold for that after a large block is freed (up to 32 MiB), and
  /// then keeps such blocks in the heap. A client can make the daemon receive a message as
  /// big as the bus allows (32 MiB and more); without a fixed threshold that memory can stay
  /// resident after the message is gone.
  package static func mapLargeBlocks() { _ = mallopt(M_MMAP_THRESHOLD, 128 * 1024) }

  /// Makes every thread allocate from the one main arena.
  ///
  /// glibc gives each new thread that allocates an arena of its own, 64 MiB of address space
  /// with pages of its own: orientd's two worker threads held 44 kB resident in theirs, and
  /// sharing the main heap grows it by 28 kB (smaps of a polling daemon). The threads allocate
  /// little and seldom, so they lose nothing by sharing. Call it before any thread starts.
  package static func shareOneArena() { _ = mallopt(M_ARENA_MAX, 1) }
}
