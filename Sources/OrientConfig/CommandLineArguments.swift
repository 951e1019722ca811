import OrientCore

/// The command line split into settings, the action, and the sample source.
package struct CommandLineArguments: Sendable {
  /// Settings in order, by name without dashes; flags have no value.
  package var settings: [(name: String, value: String?)] = []
  package var action = DaemonAction.run
  package var dump = false
  package var source = SampleSourceChoice.iio
  /// The config file named with `--config`, if any.
  package var configPath: String?
  /// The config file named with `--default-config`: read when it exists, like the default.
  package var defaultConfigPath: String?

  /// Splits arguments; `--name value` and `--name=value` both work.
  package static func parse(_ arguments: [String]) throws(Failure) -> CommandLineArguments {
    var result = CommandLineArguments()
    var sources: [String] = []
    var index = 0
    while index < arguments.count {
      var argument = arguments[index]
      index += 1
      // The two short forms every program has.
      if let long = ["-h": "--help", "-V": "--version"][argument] { argument = long }
      guard argument.hasPrefix("--"), argument.count > 2 else {
        throw .usage("unexpected argument '\(argument)'")
      }
      var name = String(argument.dropFirst(2))
      var inlineValue: String?
      if let equals = name.firstIndex(of: "=") {
        inlineValue = String(name[name.index(after: equals)...])
        name = String(name[..<equals])
      }
      func value() throws(Failure) -> String {
        if let inlineValue { return inlineValue }
        guard index < arguments.count else { throw .usage("--\(name) needs a value") }
        index += 1
        return arguments[index - 1]
      }
      func flag() throws(Failure) {
        if inlineValue != nil { throw .usage("--\(name) takes no value") }
      }
      switch name {
      case "help":
        try flag()
        result.action = .help
      case "version":
        try flag()
        result.action = .version
      case "list":
        try flag()
        result.action = .list
      case "check-config":
        try flag()
        result.action = .checkConfig
      case "completion":
        result.action = .completion(try value())
      case "dump":
        try flag()
        result.dump = true
      case "demo":
        try flag()
        guard !sources.contains("--demo") else { throw .usage("--demo given twice") }
        result.source = .demo
        sources.append("--demo")
      case "replay":
        let path = try value()
        guard !path.isEmpty else { throw .usage("--replay needs a file name") }
        guard !sources.contains("--replay") else { throw .usage("--replay given twice: replay one file") }
        result.source = .replay(path: path)
        sources.append("--replay")
      case "config":
        let path = try value()
        guard !path.isEmpty else { throw .usage("--config needs a file name") }
        result.configPath = path
      case "default-config":
        let path = try value()
        guard !path.isEmpty else { throw .usage("--default-config needs a file name") }
        result.defaultConfigPath = path
      default:
        guard let option = OptionTable.settings.first(where: { $0.name == name }) else {
          let suggestion = TypoSuggestion.closest(to: name, among: OptionTable.commandLineNames).map {
            " (did you mean --\($0)?)"
          }
          throw .usage("unknown option '--\(name)'\(suggestion ?? "")")
        }
        if option.isFlag {
          try flag()
          result.settings.append((name, nil))
        } else {
          result.settings.append((name, try value()))
        }
      }
    }
    if sources.count > 1 {
      throw .usage("\(sources.joined(separator: " and ")) cannot be combined: choose one sample source")
    }
    if result.configPath != nil, result.defaultConfigPath != nil {
      throw .usage("--config and --default-config cannot be combined: choose one config file")
    }
    // Only an IIO sensor is polled or captured; the config file may still set these for the
    // service, but on the command line they would be silently ignored.
    if let source = sources.first,
      let option = result.settings.first(where: {
        ["mode", "interval", "resting-interval"].contains($0.name)
      })
    {
      throw .usage("--\(option.name) applies to an IIO sensor and cannot be combined with \(source)")
    }
    return result
  }
}
