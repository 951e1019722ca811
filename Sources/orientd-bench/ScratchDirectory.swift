import OrientSystem

/// A scratch directory for one measurement, removed with everything in it when dropped.
final class ScratchDirectory {
  let path: String

  init() throws(SystemError) { path = try FileSystem.makeTemporaryDirectory(prefix: "/tmp/orientd-bench.") }

  deinit { try? FileSystem.removeTree(path) }
}
