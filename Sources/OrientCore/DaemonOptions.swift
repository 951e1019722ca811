/// What `orientd` was asked to do.
public enum DaemonAction: Equatable, Sendable {
  /// Run the pipeline (daemon mode, or `--dump`).
  case run
  /// List accelerometers and exit.
  case list
  /// Print the help and exit.
  case help
  /// Print the version and exit.
  case version
}

/// Where samples come from.
public enum SampleSourceChoice: Equatable, Sendable {
  /// An IIO accelerometer through libiio.
  case iio
  /// A trace file replayed.
  case replay(path: String)
  /// The built-in demo trace, looped.
  case demo
}

/// How an IIO sensor is read.
public enum CaptureMode: String, Sendable {
  /// Buffered capture when the buffer delivers a sample within 1 s, polling otherwise.
  case auto
  /// Read the raw attributes every `--interval`.
  case poll
  /// Buffered capture only.
  case buffer
}

/// A command-line mistake; orientd prints it and exits 64.
public struct UsageError: Error, Equatable, Sendable, CustomStringConvertible {
  public var message: String

  /// Creates an error with its message, which names the option.
  public init(_ message: String) { self.message = message }

  public var description: String { message }
}

/// The parsed command line of `orientd`.
public struct DaemonOptions: Equatable, Sendable {
  public var action = DaemonAction.run
  public var source = SampleSourceChoice.iio
  /// Print one line per published change to stdout.
  public var dump = false
  /// The libiio context URI; nil means the local context.
  public var uri: String?
  /// A device id, name or label to use instead of the automatic choice.
  public var device: String?
  /// The polling period in milliseconds.
  public var intervalMilliseconds = 200
  /// How the IIO sensor is read.
  public var captureMode = CaptureMode.auto
  public var settings = ClassifierSettings.defaults
  /// The allowed screen orientations given with `--allowed`; nil leaves the saved or default set.
  public var allowed: AllowedOrientations?
  /// A mount matrix that overrides every other source, as given.
  public var mountMatrix: Matrix3?
  /// A trace file to append every corrected sample to.
  public var recordPath: String?
  /// Log samples and decisions too.
  public var verbose = false
  /// The Unix socket clients connect to.
  public var socketPath = "/run/orientd/orientd.sock"
  /// Whether `--socket` was given (it turns the socket on even with `--dump`).
  public var socketGiven = false
  /// The socket file's permissions.
  public var socketMode: UInt32 = 0o666
  /// The group whose members may run control commands; nil lets every client.
  public var controlGroup: String?
  /// The most clients served at once.
  public var maxClients = 256
  /// Where the lock and allowed set are kept across restarts.
  public var statePath = "/var/lib/orientd/state"
  /// Whether `--state` was given (it turns persistence on even with `--dump`).
  public var stateGiven = false

  /// Whether orientd serves the socket: always, except for `--dump` without `--socket`.
  public var servesSocket: Bool { !dump || socketGiven }

  /// Whether orientd loads and saves the state file.
  public var persistsState: Bool { servesSocket || stateGiven }

  /// Creates the defaults.
  public init() {}

  /// Parses arguments (without the program name); `--name value` and `--name=value` both work.
  public static func parse(_ arguments: [String]) throws(UsageError) -> DaemonOptions {
    var options = DaemonOptions()
    var sources: [String] = []
    var index = 0
    while index < arguments.count {
      let argument = arguments[index]
      index += 1
      guard argument.hasPrefix("--") else {
        throw UsageError("unexpected argument '\(argument)'")
      }
      var name = argument
      var inlineValue: String?
      if let equals = argument.firstIndex(of: "=") {
        name = String(argument[..<equals])
        inlineValue = String(argument[argument.index(after: equals)...])
      }
      func value() throws(UsageError) -> String {
        if let inlineValue { return inlineValue }
        guard index < arguments.count else { throw UsageError("\(name) needs a value") }
        index += 1
        return arguments[index - 1]
      }
      func flag() throws(UsageError) {
        if inlineValue != nil { throw UsageError("\(name) takes no value") }
      }
      switch name {
      case "--help":
        try flag()
        options.action = .help
      case "--version":
        try flag()
        options.action = .version
      case "--list":
        try flag()
        options.action = .list
      case "--dump":
        try flag()
        options.dump = true
      case "--verbose":
        try flag()
        options.verbose = true
      case "--demo":
        try flag()
        options.source = .demo
        sources.append(name)
      case "--replay":
        let path = try value()
        guard !path.isEmpty else { throw UsageError("--replay needs a file name") }
        options.source = .replay(path: path)
        sources.append(name)
      case "--record":
        let path = try value()
        guard !path.isEmpty else { throw UsageError("--record needs a file name") }
        options.recordPath = path
      case "--uri":
        let uri = try value()
        guard !uri.isEmpty else { throw UsageError("--uri needs a libiio URI such as ip:192.168.1.2") }
        options.uri = uri
      case "--device":
        let device = try value()
        guard !device.isEmpty else { throw UsageError("--device needs an id, name or label") }
        options.device = device
      case "--interval":
        options.intervalMilliseconds = try milliseconds(try value(), option: name, minimum: 1)
      case "--mode":
        let text = try value()
        guard let mode = CaptureMode(rawValue: text) else {
          throw UsageError("--mode: expected auto, poll or buffer, got '\(text)'")
        }
        options.captureMode = mode
      case "--settle":
        options.settings.settleMicroseconds =
          Int64(try milliseconds(try value(), option: name, minimum: 0)) * 1000
      case "--threshold":
        options.settings.threshold = try gravity(try value(), option: name)
      case "--hysteresis":
        options.settings.hysteresis = try gravity(try value(), option: name)
      case "--shake-tolerance":
        options.settings.shakeTolerance = try gravity(try value(), option: name)
      case "--allowed":
        let text = try value()
        do {
          options.allowed = try AllowedOrientations.parse(text)
        } catch {
          throw UsageError("--allowed: \(error.message)")
        }
      case "--socket":
        let path = try value()
        guard !path.isEmpty else { throw UsageError("--socket needs a path") }
        options.socketPath = path
        options.socketGiven = true
      case "--socket-mode":
        let text = try value()
        guard text.utf8.count <= 5,
          let mode = UInt32(text.hasPrefix("0o") ? String(text.dropFirst(2)) : text, radix: 8),
          mode <= 0o7777
        else {
          throw UsageError("--socket-mode: expected an octal mode such as 0660, got '\(text)'")
        }
        options.socketMode = mode
      case "--control-group":
        let group = try value()
        guard !group.isEmpty else { throw UsageError("--control-group needs a group name") }
        options.controlGroup = group
      case "--max-clients":
        let text = try value()
        guard let count = NumberParsing.unsignedInteger(text, maximum: 100_000), count >= 1 else {
          throw UsageError("--max-clients: expected a whole number from 1 to 100000, got '\(text)'")
        }
        options.maxClients = count
      case "--state":
        let path = try value()
        guard !path.isEmpty else { throw UsageError("--state needs a path") }
        options.statePath = path
        options.stateGiven = true
      case "--mount-matrix":
        let text = try value()
        do {
          options.mountMatrix = try MountMatrix.parse(text)
        } catch {
          throw UsageError("--mount-matrix: \(error.message)")
        }
      default:
        throw UsageError("unknown option '\(name)'")
      }
    }
    if sources.count > 1 {
      throw UsageError("\(sources.joined(separator: " and ")) cannot be combined: choose one sample source")
    }
    do {
      try options.settings.validate()
    } catch {
      throw UsageError(error.message)
    }
    if options.action == .list, options.source != .iio {
      throw UsageError("--list lists IIO sensors and cannot be combined with \(sources[0])")
    }
    return options
  }

  private static func milliseconds(_ text: String, option: String, minimum: Int) throws(UsageError) -> Int {
    guard let value = NumberParsing.unsignedInteger(text, maximum: 3_600_000), value >= minimum else {
      throw UsageError("\(option): expected whole milliseconds from \(minimum) to 3600000, got '\(text)'")
    }
    return value
  }

  private static func gravity(_ text: String, option: String) throws(UsageError) -> Double {
    guard let value = NumberParsing.finiteDouble(text), value >= 0 else {
      throw UsageError("\(option): expected a non-negative number in g, got '\(text)'")
    }
    return value
  }
}
