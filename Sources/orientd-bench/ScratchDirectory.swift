import OrientSystem

/// A scratch directory for one measurement, removed with everything in it when dropped.
final class ScratchDirectory {
  let path: String

  init() throws(SystemError) { path = try FileSystem.makeTemporaryDirectory(prefix: "/tmp/orientd-bench.") }

  // Teardown: a scratch directory left in /tmp has nobody to be reported to.
  deinit { try? FileSystem.removeTree(path) }
}
