import CLinux
import Glibc

/// A program to run on a change: a shell command, or an executable file.
public struct HookCommand: Equatable, Sendable {
  /// How the log names it.
  public var description: String
  /// The program and its arguments.
  public var arguments: [String]

  /// A command line run by /bin/sh.
  public static func shell(_ command: String) -> HookCommand {
    HookCommand(description: command, arguments: ["/bin/sh", "-c", command])
  }

  /// An executable run directly with `arguments`; a bare name is looked up on `$PATH`.
  public static func program(_ arguments: [String]) -> HookCommand {
    var resolved = arguments
    if let name = arguments.first, !name.contains("/") {
      let path = getenv("PATH").map { String(cString: $0) } ?? "/usr/local/bin:/usr/bin:/bin"
      for directory in path.split(separator: ":") where access("\(directory)/\(name)", X_OK) == 0 {
        resolved[0] = "\(directory)/\(name)"
        break
      }
    }
    return HookCommand(description: arguments.joined(separator: " "), arguments: resolved)
  }

  /// Every executable regular file in `directory`, in name order.
  public static func directory(_ directory: String) -> [HookCommand] {
    guard let handle = opendir(directory) else { return [] }
    defer { closedir(handle) }
    var names: [String] = []
    while let entry = readdir(handle) {
      let name = withUnsafeBytes(of: entry.pointee.d_name) {
        String(decoding: $0.prefix(while: { $0 != 0 }), as: UTF8.self)
      }
      guard !name.hasPrefix(".") else { continue }
      var info = stat()
      let path = directory + "/" + name
      guard stat(path, &info) == 0, info.st_mode & S_IFMT == S_IFREG, access(path, X_OK) == 0 else {
        continue
      }
      names.append(name)
    }
    return names.sorted().map { program([directory + "/" + $0]) }
  }
}

/// Runs hooks on the event loop: asynchronously, one at a time in order, each killed after
/// a timeout, and coalesced: changes that come during a run lead to one more run with only
/// the latest environment. A failing hook is logged and changes nothing else.
public final class HookRunner {
  private struct Child {
    let pid: pid_t
    let pidfd: Int32
    let watch: Watch
    let timer: LoopTimer
    let command: HookCommand
    var timedOut = false
  }

  private let loop: EventLoop
  private let commands: () -> [HookCommand]
  private var timeoutNanoseconds: UInt64
  private var queue: [HookCommand] = []
  private var environment: [String] = []
  private var child: Child?
  private var pending: [(name: String, value: String)]?

  /// Runs `commands()` (evaluated at the start of each run) with hooks killed after `timeoutMilliseconds`.
  public init(loop: EventLoop, timeoutMilliseconds: Int, commands: @escaping () -> [HookCommand]) {
    self.loop = loop
    self.commands = commands
    timeoutNanoseconds = UInt64(timeoutMilliseconds) * 1_000_000
  }

  /// Changes the timeout for hooks started from now on.
  public func update(timeoutMilliseconds: Int) {
    timeoutNanoseconds = UInt64(timeoutMilliseconds) * 1_000_000
  }

  /// Whether a run is in progress.
  public var isRunning: Bool { child != nil || !queue.isEmpty }

  /// Runs every hook with `variables` added to the environment, now or after the current run.
  public func trigger(_ variables: [(name: String, value: String)]) {
    guard !isRunning else {
      pending = variables
      return
    }
    startRun(variables)
  }

  private func startRun(_ variables: [(name: String, value: String)]) {
    queue = commands()
    // Without hooks (the usual case) a change costs nothing here.
    guard !queue.isEmpty else { return }
    let names = Set(variables.map(\.name))
    environment =
      processEnvironment().filter { entry in
        !names.contains(String(entry.prefix(while: { $0 != "=" })))
      } + variables.map { "\($0.name)=\($0.value)" }
    startNext()
  }

  private func startNext() {
    while !queue.isEmpty {
      let command = queue.removeFirst()
      if spawn(command) { return }
    }
    if let next = pending {
      pending = nil
      startRun(next)
    }
  }

  private func spawn(_ command: HookCommand) -> Bool {
    let argv = command.arguments.map { strdup($0) } + [nil]
    let envp = environment.map { strdup($0) } + [nil]
    defer {
      argv.forEach { free($0) }
      envp.forEach { free($0) }
    }
    var pid: pid_t = 0
    let result = clinux_spawn_hook(&pid, command.arguments[0], argv, envp)
    guard result == 0 else {
      Log.warning("hook '\(command.description)' could not start: \(errorText(result))")
      return false
    }
    let pidfd = clinux_pidfd_open(pid)
    do {
      guard pidfd >= 0 else { throw SystemError("pidfd_open") }
      let watch = try loop.watch(pidfd) { [unowned self] _ in self.reap() }
      let timer = LoopTimer(loop: loop) { [unowned self] _ in self.timeOut() }
      timer.schedule(afterNanoseconds: timeoutNanoseconds)
      child = Child(pid: pid, pidfd: pidfd, watch: watch, timer: timer, command: command)
      return true
    } catch {
      // Without a way to watch it, wait for it here rather than leave a zombie.
      Log.warning("hook '\(command.description)': \(error); waiting for it")
      var status: Int32 = 0
      waitpid(pid, &status, 0)
      if pidfd >= 0 { close(pidfd) }
      return false
    }
  }

  private func timeOut() {
    guard var running = child, !running.timedOut else { return }
    running.timedOut = true
    child = running
    // The whole process group, so a hook's own children go too.
    kill(-running.pid, SIGKILL)
  }

  private func reap() {
    guard let running = child else { return }
    var status: Int32 = 0
    guard waitpid(running.pid, &status, WNOHANG) == running.pid else { return }
    loop.unwatch(running.watch)
    close(running.pidfd)
    running.timer.cancel()
    child = nil
    let signal = status & 0x7f
    let code = (status >> 8) & 0xff
    if running.timedOut {
      let seconds = Double(timeoutNanoseconds) / 1e9
      Log.warning("hook '\(running.command.description)' took longer than \(seconds) s and was killed")
    } else if signal != 0 {
      Log.warning("hook '\(running.command.description)' was killed by signal \(signal)")
    } else if code != 0 {
      Log.warning("hook '\(running.command.description)' failed with exit status \(code)")
    } else {
      Log.debug("hook '\(running.command.description)' finished")
    }
    startNext()
  }
}

/// The process's environment as `NAME=value` strings.
public func processEnvironment() -> [String] {
  var result: [String] = []
  var entry = environ
  while let pointer = entry.pointee {
    result.append(String(cString: pointer))
    entry += 1
  }
  return result
}
