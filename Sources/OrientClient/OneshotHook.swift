import OrientCore
import OrientHooks
import OrientSystem

/// `orientctl hook --oneshot COMMAND`: runs the command once, with the variables a hook gets
/// for the current screen orientation and mode, and exits with its status (rot8's
/// `--oneshot`): for a session's start, or a key that puts the screen right.
enum OneshotHook {
  /// Runs `command` for orientd's state at `socket`; its exit status (128 + the signal when a
  /// signal ended it, 124 when it took longer than `timeout` and was killed), 127 when it
  /// cannot be started, 69 when orientd cannot be reached. With `supports`, the orientation
  /// is worked out within those orientations (1 when orientd refuses them).
  static func run(
    socket: SocketLocation, command: [String], timeout: Duration, supports: AllowedOrientations? = nil
  )
    -> Int32
  {
    let hook = HookCommand.program(command)
    if let problem = hook.startProblem {
      StandardStream.error.report("orientctl: hook: \(problem)\n")
      return HookClient.notFound
    }
    let connection: LineConnection
    let path: String
    do {
      (connection, path) = try socket.connect()
    } catch {
      return error.report()
    }
    connection.replyTimeout = Invocation.defaultTimeout
    let session = Session(connection: connection, socket: path)
    if let supports {
      let declared = session.control("supports " + supports.listText)
      guard declared == 0 else { return declared }
    }
    // The panel's mount as orientd found it (`panel` in its info), for the transforms.
    guard let info = session.info() else { return session.lost() }
    let panel = info.first { $0.key == "panel" }.flatMap { ScreenOrientation(name: $0.value) } ?? .normal
    guard let state = session.state(keys: "all,suggestion") else { return session.lost() }
    let variables =
      HookEnvironment.variables(
        orientation: state.orientation, previous: state.orientation, device: nil, mode: state.mode, panel: panel)
      + HookEvent.orientation.variables(suggestion: state.suggestion)
    let names = Set(variables.map(\.name))
    let environment =
      Environment.all.filter { !names.contains(String($0.prefix { $0 != "=" })) }
      + variables.map { "\($0.name)=\($0.value)" }
    var spawn = Spawn(hook.arguments, environment: environment)
    // Its own group, so a timeout ends what it started too.
    spawn.newProcessGroup = true
    let pid: ProcessID
    let exit: FileDescriptor
    do {
      pid = try spawn.start()
      exit = try pid.exitDescriptor()
    } catch {
      StandardStream.error.report("orientctl: hook: \(hook.description) could not start: \(error.code)\n")
      return [.noSuchFile, .accessDenied].contains(error.code)
        ? HookClient.notFound : ExitCode.unavailable.rawValue
    }
    // A failed wait counts as the time running out: the hook is killed rather than waited on.
    let ready = try? Readiness.wait([(exit.rawValue, .readable)], timeout: timeout)
    let timedOut = ready?.first?.isEmpty != false
    if timedOut {
      StandardStream.error.report(
        "orientctl: hook: \(hook.description) took longer than \(timeout.secondsText) s and was killed\n")
      // Fails only when the group has already gone, which is what the kill is for.
      try? pid.sendToGroup(.kill)
    }
    let status: ExitStatus
    do {
      status = try pid.wait()
    } catch {
      StandardStream.error.report("orientctl: hook: cannot wait for \(hook.description): \(error)\n")
      return ExitCode.software.rawValue
    }
    if timedOut { return 124 }
    switch status {
    case .exited(let code): return code
    case .signalled(let signal): return 128 + signal.rawValue
    }
  }
}
