import OrientSystem

/// What is wrong with `--hooks-dir`, found once at start and at each reload, so that `info`
/// never has to stat a path (perhaps on a slow network file system) on the loop for every
/// client that asks.
enum HooksDirectory {
  /// "missing" or "not a directory" when `directory` cannot hold hooks; nil when it can.
  static func problem(_ directory: String) -> String? {
    let status = try? FileSystem.status(of: directory)
    guard status?.kind != .directory else { return nil }
    return status == nil ? "missing" : "not a directory"
  }
}
