import OrientConfig

/// The options for a command line alone, with no config file.
func parseCommandLine(_ arguments: [String]) throws -> DaemonOptions {
  try DaemonOptions.resolve(commandLine: try CommandLineArguments.parse(arguments), config: [])
}
