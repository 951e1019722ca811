import OrientCore
import OrientSystem

/// orientd's version.
public let orientdVersion = "0.1.0"

/// The `orientd` command: parses arguments, runs the chosen action, returns the exit status.
public enum OrientdCommand {
  /// Runs orientd with `arguments` (without the program name).
  public static func main(_ arguments: [String]) -> Int32 {
    ignoreBrokenPipes()
    Log.detectJournal()
    let commandLine: CommandLineArguments
    do {
      commandLine = try CommandLineArguments.parse(arguments)
    } catch {
      return usageFailure(error)
    }
    switch commandLine.action {
    case .help:
      FileDescriptor.standardOutput.writeAll(helpText)
      return 0
    case .version:
      FileDescriptor.standardOutput.writeAll("orientd \(orientdVersion)\n")
      return 0
    case .list, .run:
      break
    }
    let configuration = Configuration(commandLine: commandLine)
    let options: DaemonOptions
    do {
      options = try configuration.load()
    } catch {
      switch error {
      case .config(let failure):
        FileDescriptor.standardError.writeAll("orientd: \(failure.message)\n")
        return ExitCode.config.rawValue
      case .usage(let failure):
        return usageFailure(failure)
      }
    }
    if options.verbose { Log.threshold = .debug }
    do {
      switch options.action {
      case .help, .version:
        return 0
      case .list:
        FileDescriptor.standardOutput.writeAll(try SensorListing.run(options: options))
        return 0
      case .run:
        return try Daemon(options: options, configuration: configuration).run().rawValue
      }
    } catch {
      FileDescriptor.standardError.writeAll("orientd: \(error.message)\n")
      return error.exitCode.rawValue
    }
  }

  private static func usageFailure(_ error: UsageError) -> Int32 {
    FileDescriptor.standardError.writeAll("orientd: \(error.message)\nTry 'orientd --help'.\n")
    return ExitCode.usage.rawValue
  }

  static let helpText = """
    Usage: orientd [OPTION]...
    Reads an IIO accelerometer and publishes which way the screen is up.

    Actions:
      --dump                 print one line per change: '<t> device <o>' or '<t> orientation <o>'
      --list                 list accelerometers with scale, mount matrix and reading, then exit
      --help                 show this help and exit
      --version              show the version and exit

    Sample source (default: the accelerometer found through libiio):
      --uri URI              libiio context URI, e.g. ip:192.168.1.2 (default local:)
      --device ID|NAME|LABEL use this IIO device instead of the automatic choice
      --mode auto|poll|buffer  buffered capture, polling, or buffer if it delivers within 1 s (default auto)
      --interval MS          polling period in milliseconds (default 200)
      --mount-matrix M       override the mount matrix: 'x1, y1, z1; x2, y2, z2; x3, y3, z3'
      --replay FILE          replay a trace file (as fast as possible with --dump)
      --demo                 loop a built-in trace through all six orientations
      --record FILE          append every corrected sample to a trace file

    Socket (served unless --dump runs without --socket):
      --socket PATH          the Unix socket clients connect to (default /run/orientd/orientd.sock)
      --socket-mode OCTAL    the socket file's permissions (default 0666)
      --control-group GROUP  only root, orientd's user and GROUP may lock, unlock, rotate and allow
      --max-clients N        the most clients served at once (default 256)
      --state PATH           where the lock and allowed set persist (default /var/lib/orientd/state)

    Classifier:
      --threshold G          component needed to propose an orientation (default 0.6)
      --hysteresis G         the current orientation holds down to threshold - G (default 0.1)
      --shake-tolerance G    ignore samples whose magnitude is off 1 g by more (default 0.4)
      --settle MS            how long a new orientation must hold (default 300)
      --allowed LIST         screen orientations to take, e.g. normal,left-up (default all)

    Hooks (run on every screen-orientation change):
      --hook CMD             run CMD with /bin/sh (repeatable)
      --hooks-dir DIR        run every executable in DIR, in name order
      --hook-timeout SECONDS kill a hook that runs longer (default 5)

    Other:
      --config PATH          the config file (default /etc/orientd/orientd.conf; missing is fine)
      --verbose              log every sample and what it proposes

    Orientations: normal, bottom-up, left-up, right-up, face-up, face-down.
    Every option but the actions, --demo, --replay and --config can also be set in the
    config file as 'name = value'; the command line wins. SIGHUP reloads the file.
    Exit status: 0 ok, 64 usage, 65 bad data, 66 missing input, 69 no sensor, 73 cannot create,
    78 bad config file.

    """
}
