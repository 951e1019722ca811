import Glibc
import OrientCore
import OrientSystem

/// Where orientd's options come from: the config file, then the command line over it.
///
/// Kept by the daemon so SIGHUP can read the file again with the same command line.
public struct Configuration: Sendable {
  /// Why the options could not be built.
  public enum LoadError: Error {
    /// The config file is missing (when named), unreadable or wrong: exit 78.
    case config(ConfigError)
    /// The command line is wrong: exit 64.
    case usage(UsageError)
  }

  /// The default config file, which may be missing.
  public static let defaultPath = "/etc/orientd/orientd.conf"

  public let commandLine: CommandLineArguments
  /// The file to read.
  public var path: String { commandLine.configPath ?? Self.defaultPath }

  /// Creates a configuration for a command line.
  public init(commandLine: CommandLineArguments) { self.commandLine = commandLine }

  /// Reads the file and applies the command line over it.
  public func load() throws(LoadError) -> DaemonOptions {
    var options: DaemonOptions
    do {
      options = try DaemonOptions(config: try entries())
    } catch {
      throw .config(error)
    }
    do {
      try options.overlay(commandLine)
    } catch {
      throw .usage(error)
    }
    return options
  }

  private func entries() throws(ConfigError) -> [ConfigEntry] {
    let text: String
    do {
      text = try readTextFile(path)
    } catch {
      if error.code == ENOENT, commandLine.configPath == nil { return [] }
      throw ConfigError("cannot read config file: \(error)")
    }
    return try ConfigFile.parse(text, path: path)
  }
}
