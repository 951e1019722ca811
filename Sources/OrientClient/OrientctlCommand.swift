import OrientCore
import OrientSystem

/// The `orientctl` client: query, monitor and control orientd over its socket.
package enum OrientctlCommand {
  /// Runs orientctl with `arguments` (without the program name) and returns the exit status.
  package static func main(_ arguments: [String]) -> Int32 {
    ignoreBrokenPipes()
    let invocation: Invocation
    do {
      invocation = try Invocation.parse(arguments)
    } catch {
      StandardStream.error.report("orientctl: \(error.message)\nTry 'orientctl --help'.\n")
      return ExitCode.usage.rawValue
    }
    Log.program = "orientctl"
    switch invocation.command {
    case .help(let command):
      StandardStream.output.report(command.map(help(for:)) ?? helpText)
      return 0
    case .hook(let command, let timeout, let oneshot):
      if oneshot {
        return OneshotHook.run(
          socket: invocation.socket, command: command, timeout: timeout, supports: invocation.supports)
      }
      do {
        return try HookClient(
          socket: invocation.socket, command: command, timeout: timeout, supports: invocation.supports
        ).run()
      } catch {
        StandardStream.error.report("orientctl: \(error)\n")
        return ExitCode.osError.rawValue
      }
    case .version:
      StandardStream.output.report("orientctl \(orientctlVersion)\n")
      return 0
    case .completion(let shell):
      StandardStream.output.report(CommandTable.completionSpec.script(for: shell))
      return 0
    case .monitor(let style, let once):
      return MonitorClient.run(
        socket: invocation.socket, style: style, once: once, supports: invocation.supports)
    default:
      break
    }
    let connection: LineConnection
    let socket: String
    do {
      (connection, socket) = try invocation.socket.connect()
    } catch {
      return error.report()
    }
    switch invocation.command {
    case .get, .control, .toggleLock, .doctor:
      connection.replyTimeout = invocation.timeout
    default: break
    }
    let session = Session(connection: connection, socket: socket)
    switch invocation.command {
    case .get(let json, let field): return session.get(json: json, field: field)
    case .control(let line): return session.control(line)
    case .toggleLock: return session.toggleLock()
    case .samples(let raw): return session.samples(raw: raw)
    case .doctor: return session.doctor()
    case .calibrate(let automatic, let json):
      return Calibrator(session: session, automatic: automatic, json: json).run()
    case .help, .version, .hook, .monitor, .completion: return 0
    }
  }

  /// The help for one command: its lines from the command list, then the options (not the
  /// notes and exit statuses, which `--help` has).
  static func help(for command: String) -> String {
    let lines = helpText.split(separator: "\n", omittingEmptySubsequences: false)
    guard let start = lines.firstIndex(of: "Commands:"), let end = lines.firstIndex(of: "Options:") else {
      return helpText
    }
    var entry: [Substring] = []
    var inEntry = false
    for line in lines[(start + 1)..<end] {
      let isContinuation = line.hasPrefix("   ")
      if !isContinuation { inEntry = line.split(separator: " ").first == Substring(command) }
      if inEntry { entry.append(line) }
    }
    let options = lines[end...].prefix { !$0.isEmpty }
    return "Usage: orientctl [OPTIONS] \(command) ...\n\n" + entry.joined(separator: "\n") + "\n\n"
      + options.joined(separator: "\n") + "\n"
  }

  static let helpText = """
    Usage: orientctl [OPTIONS] COMMAND [ARGUMENT]... [OPTIONS]
    Queries and controls orientd over its Unix socket.

    Commands:
      get [--json] [FIELD]
          print the current state, as one JSON object with --json; FIELD (sensor,
          device, orientation, lock, allowed, mode, hinge) prints only that value;
          light, proximity and heading print a reading (the sensor is read for it;
          none without one); suggestion prints the rotation suggested now, or none
      monitor [--json|--iio-sensor-proxy] [--no-reconnect] [--supports LIST]
          print the state, the light level, proximity and heading, and every
          change and rotation suggestion until interrupted (the sensors are read
          meanwhile); waits for orientd when it is not there yet and reconnects
          when it restarts, unless --no-reconnect (then it exits 69); --supports
          LIST works its orientation lines out within LIST only
      lock [ORIENTATION]
          lock the screen orientation (default: the current one)
      lock --toggle
          lock to the current orientation, or unlock when locked
      unlock
          follow the device again
      rotate cw|ccw
          lock to the next allowed orientation clockwise or counter-clockwise,
          skipping those not allowed
      allow all|LIST
          set the allowed screen orientations, e.g. normal,left-up
      accept-suggestion
          lock the screen to the rotation suggested while it is locked (the
          device held another allowed orientation); refused when none is;
          --timeout applies as to lock
      mode tablet|laptop|auto
          set the mode (kept across restarts), or give it back to the
          tablet-mode switch or hinge
      samples [--raw]
          print every sample in g (corrected, or before the mount matrix)
      doctor
          explain the sensor, its set-up, the mode, D-Bus, the state and the hooks
      calibrate [--yes] [--json]
          measure three poses and print the mount matrix and hwdb fix; --yes
          takes each pose once steady, without Enter
      hook [--timeout S] [--oneshot] [--supports LIST] [--] COMMAND [ARG]...
          run COMMAND on every change of the screen orientation or the mode, and
          every rotation suggestion (ORIENTD_EVENT says which), with ORIENTD_*
          variables set (not ORIENTD_DEVICE), killed after S s (default
          5); waits for orientd and reconnects when it restarts; --oneshot runs
          it once for the current state and exits with its status; --supports
          LIST runs it only for the orientations of LIST (normal,bottom-up for a
          landscape-only app); options go before COMMAND
      completion bash|zsh|fish
          print the shell's completion script, which make install installs;
          without it: source <(orientctl completion bash) in bash,
          source <(orientctl completion zsh) in zsh (after compinit),
          orientctl completion fish | source in fish
      help [COMMAND]
          print this help, or one command's

    Options:
      --socket PATH   orientd's socket (default $ORIENTD_SOCKET, else
                      $XDG_RUNTIME_DIR/orientd/orientd.sock for a user other than
                      root, then /run/orientd/orientd.sock: both tried at each
                      connection)
      --timeout S     give up on get, lock, unlock, rotate, allow, mode and doctor
                      when orientd has not answered within S seconds (default 5),
                      and exit 69
      --help, -h      print this help (after a command: that command's)
      --version, -V   print the version

    --iio-sensor-proxy prints what monitor-sensor prints: the device's orientation,
    not the screen's, the light level, proximity and the heading. The heading is
    for root, orientd's user and geoclue only. monitor --once is the old name of
    monitor --no-reconnect. See orientctl(1).

    Exit status:
      0   success
      1   orientd refused the command (its error on stderr), e.g. an orientation
          not allowed, or no rotation suggested
      64  bad usage: an unknown command or option, or a bad value
      65  calibrate: the measured poses do not fit together, or fit only a mirror
      69  orientd unreachable, gone, or silent for --timeout; hook: COMMAND could
          not start
      75  calibrate: interrupted (stdin closed) or no steady pose in 2 minutes;
          try again
      77  permission denied: control refused (not in orientd's control group), or
          the socket does not let this user connect
      127 hook: COMMAND is missing or not executable

    """
}

/// orientctl's version.
let orientctlVersion = "0.1.0"
