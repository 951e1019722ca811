import OrientCore
import OrientSystem

/// How `monitor` prints changes.
enum MonitorStyle: Equatable {
  case text
  case json
  case iioSensorProxy
}

/// A parsed orientctl command line.
///
/// Why this file is about 300 lines: it parses every orientctl command's arguments in one
/// place, against `CommandTable`, so that usage errors read the same for each.
struct Invocation: Equatable {
  enum Command: Equatable {
    /// Print the state, or only `field`.
    case get(json: Bool, field: String?)
    /// Print changes; with `once` (`--no-reconnect`), exit 69 when orientd is not there or
    /// closes the connection instead of waiting for it.
    case monitor(MonitorStyle, once: Bool)
    /// A control command, as the line sent to orientd.
    case control(String)
    /// Lock to the current orientation, or unlock when locked.
    case toggleLock
    /// Print the sample stream.
    case samples(raw: Bool)
    /// Explain the current state.
    case doctor
    /// Work out the mount matrix from three poses.
    case calibrate(automatic: Bool, json: Bool)
    /// Run a program on every screen-orientation change, or with `oneshot` once for the
    /// current state.
    case hook(command: [String], timeout: Duration, oneshot: Bool)
    /// Print the completion script for a shell.
    case completion(CompletionSpec.Shell)
    /// Print the help: all of it, or one command's part.
    case help(command: String?)
    case version
  }

  var socket: SocketLocation
  var command: Command
  /// How long orientd may take to answer a query or a control command.
  var timeout = Invocation.defaultTimeout
  /// The orientations `monitor` or `hook` supports (`--supports LIST`), if it said.
  var supports: AllowedOrientations?

  /// Long enough for a loaded machine, short enough that a status bar does not stall.
  static let defaultTimeout = Duration.seconds(5)

  init(
    socket: SocketLocation, command: Command, timeout: Duration = Invocation.defaultTimeout,
    supports: AllowedOrientations? = nil
  ) {
    self.socket = socket
    self.command = command
    self.timeout = timeout
    self.supports = supports
  }

  /// Takes `--supports LIST` (or `--supports=LIST`) out of `monitor`'s or `hook`'s arguments:
  /// a monitor's from anywhere, a hook's from the options before its command.
  static func takeSupports(from arguments: inout [String], verb: String) throws(Failure)
    -> AllowedOrientations?
  {
    guard verb == "monitor" || verb == "hook" else { return nil }
    var supports: AllowedOrientations?
    var index = 0
    while index < arguments.count {
      let argument = arguments[index]
      if verb == "hook", argument == "--" || !argument.hasPrefix("-") { break }
      guard argument == "--supports" || argument.hasPrefix("--supports=") else {
        // A hook's options that take a value: the value is not an option.
        index += verb == "hook" && (argument == "--timeout" || argument == "--socket") ? 2 : 1
        continue
      }
      let separate = argument == "--supports"
      guard let list = separate ? arguments.dropFirst(index + 1).first : String(argument.dropFirst(11)),
        !list.isEmpty
      else {
        throw .usage("\(verb) --supports needs a list, e.g. normal,bottom-up")
      }
      do {
        supports = try AllowedOrientations.parse(list)
      } catch {
        throw .usage("\(verb) --supports: \(error.message)")
      }
      arguments.removeSubrange(index..<(index + (separate ? 2 : 1)))
    }
    return supports
  }

  /// Every command, in the order the help lists them.
  static let commands = CommandTable.names

  /// Parses `--timeout`'s value (`option` names it in messages): seconds, above 0 and at
  /// least a millisecond, at most a day.
  static func timeout(_ text: String?, option: String = "--timeout") throws(Failure) -> Duration {
    guard let text, let time = NumberParsing.duration(seconds: text) else {
      throw .usage("\(option): expected seconds such as 5 or 0.5")
    }
    guard time > .zero else { throw .usage("\(option): must be above 0 seconds, such as 5 or 0.5") }
    guard time >= .milliseconds(1), time <= .seconds(86400) else {
      throw .usage("\(option): expected seconds from 0.001 to 86400, such as 5 or 0.5")
    }
    return time
  }

  /// Parses arguments; the socket defaults to `SocketLocation.default`.
  static func parse(_ arguments: [String], defaultSocket: SocketLocation = SocketLocation.default())
    throws(Failure) -> Invocation
  {
    var socket = defaultSocket
    var timeout = defaultTimeout
    var rest = arguments[...]
    while let first = rest.first, first.hasPrefix("-"), first != "-" {
      rest = rest.dropFirst()
      switch first {
      case "--help", "-h": return Invocation(socket: socket, command: .help(command: nil))
      case "--version", "-V": return Invocation(socket: socket, command: .version)
      case "--socket":
        guard let path = rest.first, !path.isEmpty else { throw .usage("--socket needs a path") }
        socket = .named(path)
        rest = rest.dropFirst()
      case "--timeout":
        timeout = try Self.timeout(rest.first)
        rest = rest.dropFirst()
      default:
        if first.hasPrefix("--timeout=") {
          timeout = try Self.timeout(String(first.dropFirst("--timeout=".count)))
        } else if first.hasPrefix("--socket=") {
          let path = String(first.dropFirst("--socket=".count))
          guard !path.isEmpty else { throw .usage("--socket needs a path") }
          socket = .named(path)
        } else {
          throw .usage(CommandTable.unknownOption(first, among: CommandTable.globalNames))
        }
      }
    }
    guard let verb = rest.first else {
      throw .usage("no command given (\(commands.joined(separator: ", ")))")
    }
    guard commands.contains(verb) else {
      let suggestion =
        TypoSuggestion.closest(to: verb, among: commands).map { "; did you mean '\($0)'?" } ?? ""
      throw .usage("unknown command '\(verb)'\(suggestion)")
    }
    var arguments = Array(rest.dropFirst())
    // The usage line comes from the command table, so it names every option the command takes.
    let usage = CommandTable.usage(verb)
    if verb == "help" {
      guard arguments.count <= 1, arguments.allSatisfy(commands.contains) else { throw .usage(usage) }
      return Invocation(socket: socket, command: .help(command: arguments.first))
    }
    let supports = try takeSupports(from: &arguments, verb: verb)
    let ownOptions = CommandTable.options(of: verb)
    if verb == "hook" {
      // Everything after `hook`'s own options is the hook's command line.
      if arguments.first == "--help" || arguments.first == "-h" {
        return Invocation(socket: socket, command: .help(command: verb))
      }
    } else {
      // Options may follow the command too: `orientctl get --socket PATH`.
      var operands: [String] = []
      var remaining = arguments[...]
      while let argument = remaining.popFirst() {
        switch argument {
        case "--help", "-h": return Invocation(socket: socket, command: .help(command: verb))
        case "--socket":
          guard let path = remaining.popFirst(), !path.isEmpty else { throw .usage("--socket needs a path") }
          socket = .named(path)
        case "--timeout": timeout = try Self.timeout(remaining.popFirst())
        default:
          if argument.hasPrefix("--socket=") {
            let path = String(argument.dropFirst("--socket=".count))
            guard !path.isEmpty else { throw .usage("--socket needs a path") }
            socket = .named(path)
          } else if argument.hasPrefix("--timeout=") {
            timeout = try Self.timeout(String(argument.dropFirst("--timeout=".count)))
          } else if argument.hasPrefix("-"), argument.count > 1, !ownOptions.contains(argument),
            !(verb == "monitor" && argument == "--once")
          {
            throw .usage(
              "\(verb): " + CommandTable.unknownOption(argument, among: ownOptions + CommandTable.globalNames)
            )
          } else {
            operands.append(argument)
          }
        }
      }
      arguments = operands
    }
    func noArguments() throws(Failure) {
      guard arguments.isEmpty else { throw .usage("\(verb) takes no argument; \(usage)") }
    }
    let command: Command
    switch verb {
    case "get":
      let json = arguments.contains("--json")
      let fields = arguments.filter { $0 != "--json" }
      guard fields.count <= 1, arguments.count - fields.count <= 1 else {
        throw .usage(usage)
      }
      if let field = fields.first, !StateSnapshot.fields.contains(field) {
        throw .usage("get: unknown field '\(field)' (\(StateSnapshot.fields.joined(separator: ", ")))")
      }
      command = .get(json: json, field: fields.first)
    case "monitor":
      // `--once` is the old name of `--no-reconnect`, kept for the scripts that use it.
      let noReconnect = ["--no-reconnect", "--once"]
      let once = arguments.contains { noReconnect.contains($0) }
      switch arguments.filter({ !noReconnect.contains($0) }) {
      case [] where arguments.count <= 1: command = .monitor(.text, once: once)
      case ["--json"] where arguments.count <= 2: command = .monitor(.json, once: once)
      case ["--iio-sensor-proxy"] where arguments.count <= 2: command = .monitor(.iioSensorProxy, once: once)
      case let styles where Set(styles) == ["--json", "--iio-sensor-proxy"]:
        // The table's usage line cannot say that these two exclude each other.
        throw .usage("monitor: --json and --iio-sensor-proxy exclude each other; \(usage)")
      default: throw .usage(usage)
      }
    case "lock" where arguments == ["--toggle"]:
      command = .toggleLock
    case "lock":
      guard arguments.count <= 1 else {
        let both = arguments.contains("--toggle")
        throw .usage(both ? "lock: --toggle takes no orientation; \(usage)" : usage)
      }
      if let name = arguments.first, ScreenOrientation(name: name) == nil {
        throw .usage("lock: unknown orientation '\(name)' (normal, left-up, bottom-up or right-up)")
      }
      command = .control((["lock"] + arguments).joined(separator: " "))
    case "unlock":
      try noArguments()
      command = .control("unlock")
    case "accept-suggestion":
      try noArguments()
      command = .control("accept-suggestion")
    case "rotate":
      guard arguments == ["cw"] || arguments == ["ccw"] else { throw .usage(usage) }
      command = .control("rotate " + arguments[0])
    case "allow":
      guard !arguments.isEmpty else { throw .usage(usage) }
      let list = arguments.joined(separator: " ")
      do {
        _ = try AllowedOrientations.parse(list)
      } catch {
        throw .usage("allow: \(error.message)")
      }
      command = .control("allow " + list)
    case "mode":
      guard arguments.count == 1, ["tablet", "laptop", "auto"].contains(arguments[0]) else {
        throw .usage(usage)
      }
      command = .control("mode " + arguments[0])
    case "samples":
      guard arguments.isEmpty || arguments == ["--raw"] else { throw .usage(usage) }
      command = .samples(raw: arguments == ["--raw"])
    case "doctor":
      try noArguments()
      command = .doctor
    case "calibrate":
      let flags = Set(arguments)
      guard flags.isSubset(of: ["--yes", "--json"]), flags.count == arguments.count else {
        throw .usage(usage)
      }
      command = .calibrate(automatic: flags.contains("--yes"), json: flags.contains("--json"))
    case "completion":
      guard arguments.count == 1, let shell = CompletionSpec.Shell(rawValue: arguments[0]) else {
        throw .usage(usage)
      }
      command = .completion(shell)
    case "hook":
      var rest = arguments[...]
      var hookTimeout = Duration.seconds(5)
      var oneshot = false
      // Options come before the command, so a mistyped one is not taken for the command;
      // `--` ends them, for a command whose name starts with '-'.
      while let option = rest.first, option.hasPrefix("-") {
        rest = rest.dropFirst()
        if option == "--" { break }
        if option == "--timeout" || option.hasPrefix("--timeout=") {
          let value = option == "--timeout" ? rest.popFirst() : String(option.dropFirst("--timeout=".count))
          hookTimeout = try Self.timeout(value, option: "hook --timeout")
        } else if option == "--oneshot" {
          oneshot = true
        } else if option == "--socket" || option.hasPrefix("--socket=") {
          let value = option == "--socket" ? rest.popFirst() : String(option.dropFirst("--socket=".count))
          guard let value, !value.isEmpty else { throw .usage("--socket needs a path") }
          socket = .named(value)
        } else {
          let candidates = ownOptions + ["--socket"]
          throw .usage(
            "hook: \(CommandTable.unknownOption(option, among: candidates)) (options go before the command;"
              + " put '--' before a command that starts with '-')")
        }
      }
      guard !rest.isEmpty else {
        throw .usage(usage)
      }
      command = .hook(command: Array(rest), timeout: hookTimeout, oneshot: oneshot)
    default:
      throw .usage("unknown command '\(verb)'")
    }
    return Invocation(socket: socket, command: command, timeout: timeout, supports: supports)
  }
}
