import Glibc
import OrientConfig
import OrientCore
import OrientSystem

/// Where orientd's options come from: the config file, then the command line over it.
///
/// Kept by the daemon so SIGHUP can read the file again with the same command line.
struct Configuration: Sendable {
  /// The default config file, which may be missing (`--default-config` names another).
  static let defaultPath = "/etc/orientd/orientd.conf"

  let commandLine: CommandLineArguments
  /// The file to read.
  var path: String { commandLine.configPath ?? commandLine.defaultConfigPath ?? Self.defaultPath }

  /// Creates a configuration for a command line.
  init(commandLine: CommandLineArguments) { self.commandLine = commandLine }

  /// Reads the file and applies the command line over it: a bad file fails with exit 78,
  /// a bad command line with exit 64.
  func load() throws(Failure) -> DaemonOptions {
    var options = try DaemonOptions.resolve(commandLine: commandLine, config: try entries())
    if geteuid() != 0, let runtime = Environment.value("XDG_RUNTIME_DIR"), runtime.hasPrefix("/") {
      options.placeInUserDirectory(runtime: runtime)
    }
    try checkControlGroup(of: options)
    if options.action == .checkConfig, options.persistsState {
      try StateStore.checkName(of: options.statePath)
    }
    return options
  }

  /// Fails when the control group does not exist, before anything listens: exit 78 naming
  /// file:line when the file set it, 64 naming the option when the command line did.
  private func checkControlGroup(of options: DaemonOptions) throws(Failure) {
    guard options.action == .run || options.action == .checkConfig, options.servesSocket,
      let group = options.controlGroup,
      AccountDatabase.groupID(group) == nil
    else { return }
    let origin = options.origins["control-group"] ?? "--control-group"
    let problem =
      "no group named '\(ProtocolError.printable(Substring(group)))'; give an existing group name or gid"
    if origin.hasPrefix("--") { throw .usage("\(origin): \(problem)") }
    throw .config("\(origin): control-group: \(problem)")
  }

  /// What `--check-config` prints once the file and the command line passed every check a
  /// start makes before it listens.
  var checkedText: String {
    // load() has read the file, or found the optional default missing.
    let file = FileSystem.exists(path) ? "\(path) is valid" : "\(path) is absent, so the defaults apply"
    return "orientd: configuration OK: \(file)\n"
  }

  /// The most a config file may hold.
  static let sizeLimit = 1 << 20

  /// The file's entries. The path is the user's own, so a symbolic link is followed, but only
  /// a regular file of at most 1 MiB is read: a FIFO or a device fails at once (exit 78).
  private func entries() throws(Failure) -> [ConfigEntry] {
    // Its hooks run as orientd's user (root, as a service): nobody else may have written it.
    // (/dev/null, which reads as empty, and what the read below refuses are not files to judge;
    // a path that cannot be examined fails in that read, which says why.)
    if let status = try? FileSystem.status(of: path), status.kind == .regular {
      guard status.isOwnedByRootOrUs else {
        throw .config(
          "refusing the config file \(path): it is owned by uid \(status.owner), not by root or orientd's user"
        )
      }
      guard status.permissions & 0o022 == 0 else {
        throw .config(
          "refusing the config file \(path): mode \(String(status.permissions, radix: 8)) lets other users"
            + " write it")
      }
    }
    let bytes: [UInt8]
    do {
      bytes = try FileSystem.readRegularFile(path, limit: Self.sizeLimit)
    } catch {
      if case .missing = error, commandLine.configPath == nil { return [] }
      throw .config("cannot read config file: \(error)")
    }
    let entries = try ConfigFile.parse(String(decoding: bytes, as: UTF8.self), path: path)
    for warning in ConfigFile.repeatedKeyWarnings(entries) { Log.warning(warning) }
    return entries
  }
}
