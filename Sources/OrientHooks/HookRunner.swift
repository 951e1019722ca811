import OrientCore
import OrientSystem

/// Runs hooks on the event loop: asynchronously, one at a time in order, each killed after
/// a timeout, and coalesced: changes of one kind that come during a run lead to one more run
/// with only the latest environment of that kind (at most one waiting run per kind, in the
/// order the kinds first came). A failing hook is logged and changes nothing else.
package final class HookRunner {
  /// The hook that runs now.
  private final class Child {
    let pid: ProcessID
    /// Readable once the hook has exited.
    let exit: FileDescriptor
    let watch: Watch
    let timer: LoopTimer
    let command: HookCommand
    var timedOut = false

    init(pid: ProcessID, exit: consuming FileDescriptor, watch: Watch, timer: LoopTimer, command: HookCommand)
    {
      self.pid = pid
      self.exit = exit
      self.watch = watch
      self.timer = timer
      self.command = command
    }
  }

  private let loop: EventLoop
  private let commands: () -> [HookCommand]
  /// Which of this process's variables the hooks get, by name.
  private let inherits: (Substring) -> Bool
  private var timeout: Duration
  private var queue: [HookCommand] = []
  private var environment: [String] = []
  private var child: Child?
  /// The runs waiting for the current one: the latest variables of each kind.
  private var pending: [(kind: String, variables: [(name: String, value: String)])] = []

  /// Called when a hook cannot be started at all (posix_spawn failed), after the warning.
  /// orientd leaves it unset and keeps going; `orientctl hook`, which has one command, ends.
  package var startFailed: ((HookCommand, SystemError) -> Void)?

  /// Runs `commands()` (evaluated at the start of each run) with hooks killed after `timeout`,
  /// with the variables of this process's environment that `inherits` names (all by default:
  /// `orientctl hook` passes on the session's) and the change's.
  package init(
    loop: EventLoop, timeout: Duration, inherits: @escaping (Substring) -> Bool = { _ in true },
    commands: @escaping () -> [HookCommand]
  ) {
    self.loop = loop
    self.commands = commands
    self.timeout = timeout
    self.inherits = inherits
  }

  /// Changes the timeout for hooks started from now on.
  package func update(timeout: Duration) {
    self.timeout = timeout
  }

  /// Whether a run is in progress.
  var isRunning: Bool { child != nil || !queue.isEmpty }

  /// Runs every hook with `variables` added to the environment, now or after the current run;
  /// a run of the same `kind` that waits already is replaced (`HookEvent.coalescing`).
  package func trigger(_ variables: [(name: String, value: String)], kind: String = "") {
    guard !isRunning else {
      if let index = pending.firstIndex(where: { $0.kind == kind }) {
        pending[index].variables = variables
      } else {
        pending.append((kind, variables))
      }
      return
    }
    prepareRun(variables)
    startNext()
  }

  /// Sets the hooks of a run up to be started, with `variables`.
  private func prepareRun(_ variables: [(name: String, value: String)]) {
    queue = commands()
    // Without hooks (the usual case) a change costs nothing here.
    guard !queue.isEmpty else { return }
    let names = Set(variables.map(\.name))
    environment =
      Environment.all.filter { entry in
        let name = entry.prefix(while: { $0 != "=" })
        return inherits(name[...]) && !names.contains(String(name))
      } + variables.map { "\($0.name)=\($0.value)" }
  }

  /// Starts the next hook of the run, or of the next run waiting, if any.
  private func startNext() {
    while true {
      while !queue.isEmpty {
        let command = queue.removeFirst()
        if spawn(command) { return }
      }
      guard !pending.isEmpty else { return }
      prepareRun(pending.removeFirst().variables)
    }
  }

  private func spawn(_ command: HookCommand) -> Bool {
    var spawn = Spawn(command.arguments, environment: environment)
    // Its own process group, so a timeout kills the hook's children too.
    spawn.newProcessGroup = true
    let pid: ProcessID
    do {
      pid = try spawn.start()
    } catch {
      Log.warning("hook '\(command.description)' could not start: \(error.code)")
      startFailed?(command, error)
      return false
    }
    do {
      let exit = try pid.exitDescriptor()
      let watch = try loop.watch(exit.rawValue) { [unowned self] _ in self.reap() }
      let timer = LoopTimer(loop: loop) { [unowned self] _ in self.timeOut() }
      timer.schedule(after: timeout)
      child = Child(pid: pid, exit: exit, watch: watch, timer: timer, command: command)
      return true
    } catch {
      // Without a way to watch it, wait for it here rather than leave a zombie.
      Log.warning("hook '\(command.description)': \(error); waiting for it")
      // Fails only with no child left to wait for: no zombie either.
      _ = try? pid.wait()
      return false
    }
  }

  /// Ends hooks for good (the program is exiting): the hook that runs is stopped with every
  /// process of its group, and queued runs are dropped.
  ///
  /// The group gets SIGTERM, the hook up to `grace` to exit, then the group gets
  /// SIGKILL for what is left (children that outlive the hook or ignore SIGTERM), and the hook
  /// is reaped. The hook stays unreaped until then, so the group's id cannot have been reused.
  /// A process that left the group (setsid) is not found; under systemd, the service's cgroup
  /// is. Every step is best effort on the way out: a signal fails only for a group already
  /// gone, a failed wait only shortens the grace, and a hook not reaped is init's once orientd
  /// exits.
  package func terminate(grace: Duration = .milliseconds(500)) {
    queue = []
    pending = []
    guard let running = child else { return }
    child = nil
    loop.unwatch(running.watch)
    running.timer.cancel()
    Log.info("exiting: stopping hook '\(running.command.description)' and the processes it started")
    try? running.pid.sendToGroup(.terminate)
    func exited(within timeout: Duration) -> Bool {
      let ready = try? Readiness.wait([(running.exit.rawValue, .readable)], timeout: timeout)
      return ready?.first?.isEmpty == false
    }
    _ = exited(within: grace)
    try? running.pid.sendToGroup(.kill)
    // SIGKILL ends the hook at once, unless it is stuck in the kernel (then init reaps it).
    if exited(within: .seconds(1)) { _ = try? running.pid.reap() }
  }

  private func timeOut() {
    guard let running = child, !running.timedOut else { return }
    running.timedOut = true
    // Fails only for a group already gone; its reap comes all the same.
    try? running.pid.sendToGroup(.kill)
  }

  private func reap() {
    guard let running = child else { return }
    let name = running.command.description
    var status: ExitStatus?
    do {
      guard let exited = try running.pid.reap() else { return }
      status = exited
    } catch {
      // Left as the running hook, it would hold the queue, and its exit descriptor would wake
      // the loop, for good.
      Log.warning("hook '\(name)': cannot reap it: \(error); going on to the next")
    }
    loop.unwatch(running.watch)
    running.timer.cancel()
    child = nil
    switch status {
    case nil:
      break
    case _ where running.timedOut:
      Log.warning("hook '\(name)' took longer than \(timeout.inSeconds) s and was killed")
    case .signalled(let signal)?:
      Log.warning("hook '\(name)' was killed by signal \(signal)")
    case .exited(let code)? where code != 0:
      Log.warning("hook '\(name)' failed with exit status \(code)")
    case .exited?:
      Log.debug("hook '\(name)' finished")
    }
    startNext()
  }
}
