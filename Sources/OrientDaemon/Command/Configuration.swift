import OrientConfig
import OrientCore
import OrientSystem

/// Where orientd's options come from: the config file, then the command line over it.
///
/// Kept by the daemon so SIGHUP can read the file again with the same command line.
public struct Configuration: Sendable {
  /// The default config file, which may be missing.
  public static let defaultPath = "/etc/orientd/orientd.conf"

  public let commandLine: CommandLineArguments
  /// The file to read.
  public var path: String { commandLine.configPath ?? Self.defaultPath }

  /// Creates a configuration for a command line.
  public init(commandLine: CommandLineArguments) { self.commandLine = commandLine }

  /// Reads the file and applies the command line over it: a bad file fails with exit 78,
  /// a bad command line with exit 64.
  public func load() throws(Failure) -> DaemonOptions {
    try DaemonOptions.resolve(commandLine: commandLine, config: try entries())
  }

  private func entries() throws(Failure) -> [ConfigEntry] {
    let text: String
    do {
      text = try FileSystem.readText(path)
    } catch {
      if error.code == .noSuchFile, commandLine.configPath == nil { return [] }
      throw .config("cannot read config file: \(error)")
    }
    return try ConfigFile.parse(text, path: path)
  }
}
