import Glibc
import OrientConfig
import OrientCore
import OrientSystem

/// orientd's version.
let orientdVersion = "0.1.0"

/// The `orientd` command: parses arguments, runs the chosen action, returns the exit status.
package enum OrientdCommand {
  /// Runs orientd with `arguments` (without the program name).
  package static func main(_ arguments: [String]) -> Int32 {
    ignoreBrokenPipes()
    Log.detectJournal()
    Log.writeWithoutWaiting()
    LibraryMessages.capture()
    let commandLine: CommandLineArguments
    do {
      commandLine = try CommandLineArguments.parse(arguments)
    } catch {
      // An ExecStart= with a mistyped option, started by systemd for a waiting client.
      let status = usageFailure(error)
      StartFailureNotice.answerWaitingClients()
      return status
    }
    switch commandLine.action {
    case .help:
      return write(DaemonHelp.text)
    case .version:
      return write("orientd \(orientdVersion)\n")
    case .completion(let name):
      guard let shell = CompletionSpec.Shell(rawValue: name) else {
        return usageFailure(.usage("--completion: expected bash, zsh or fish, got '\(name)'"))
      }
      return write(DaemonHelp.completionSpec.script(for: shell))
    case .list, .run, .checkConfig:
      break
    }
    let configuration = Configuration(commandLine: commandLine)
    let options: DaemonOptions
    do {
      options = try configuration.load()
    } catch {
      let status = error.exitCode == .usage ? usageFailure(error) : fail(error)
      if commandLine.action == .run { StartFailureNotice.answerWaitingClients() }
      return status
    }
    // What only a start finds (a state file's path that names no file, its directory unsafe):
    // the same mistake, told the same way.
    func failedStart(_ error: Failure) -> Int32 {
      let status = fail(error)
      if error.exitCode == .config || error.exitCode == .usage { StartFailureNotice.answerWaitingClients() }
      return status
    }
    if options.verbose { Log.threshold = .debug }
    if options.action == .run, options.servesSocket || options.persistsState,
      let directory = options.userDirectory
    {
      Log.info("not running as root: the socket and the state file are in \(directory)")
    }
    do {
      switch options.action {
      case .help, .version, .completion:
        return 0
      case .checkConfig:
        return write(configuration.checkedText)
      case .list:
        return write(try SensorListing.run(options: options))
      case .run:
        return try Daemon(options: options, configuration: configuration).run().rawValue
      }
    } catch {
      return options.action == .run ? failedStart(error) : fail(error)
    }
  }

  /// Prints `text` on stdout; exit 74 when it cannot be written.
  private static func write(_ text: String) -> Int32 {
    do {
      try StandardStream.output.write(text)
      return 0
    } catch {
      return fail(Failure("cannot write to stdout: \(error)", exitCode: .ioError))
    }
  }

  private static func fail(_ failure: Failure) -> Int32 {
    var message = failure.message
    if failure.exitCode == .cannotCreate, geteuid() != 0 {
      // A user trying orientd out: the system's paths are root's.
      message +=
        "; as a user other than root, give --state PATH and --socket PATH (or set XDG_RUNTIME_DIR"
        + " for them to go there)"
    }
    // A failed write to stderr has nowhere to be reported; the exit code still says it.
    try? StandardStream.error.write("orientd: \(message)\n")
    return failure.exitCode.rawValue
  }

  private static func usageFailure(_ failure: Failure) -> Int32 {
    // As in `fail`: nowhere to report, and the exit code says it.
    try? StandardStream.error.write("orientd: \(failure.message)\nTry 'orientd --help'.\n")
    return ExitCode.usage.rawValue
  }
}
