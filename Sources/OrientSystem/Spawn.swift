import CLinux
import Glibc

/// A program to start with posix_spawn: its arguments, environment and standard streams.
///
/// The child gets no descriptor beyond its three streams, no blocked signals and every signal
/// at its default action, whatever the parent blocked or ignored.
package struct Spawn: Sendable {
  /// Where a standard stream of the child goes.
  package enum Stream: Sendable {
    /// The parent's stream.
    case inherit
    /// A file opened for the child.
    case file(String, AccessMode, OpenOptions = [])
  }

  /// The program (a path) and its arguments.
  package var arguments: [String]
  /// `NAME=value` strings; nil passes this process's environment.
  package var environment: [String]?
  var standardInput = Stream.file("/dev/null", .readOnly)
  package var standardOutput = Stream.inherit
  package var standardError = Stream.inherit
  /// Whether the child leads a new process group, so it can be killed with its own children.
  package var newProcessGroup = false

  /// A spawn of `arguments` with the defaults above.
  package init(_ arguments: [String], environment: [String]? = nil) {
    self.arguments = arguments
    self.environment = environment
  }

  /// Starts the child.
  package func start() throws(SystemError) -> ProcessID {
    guard let program = arguments.first else { throw SystemError("posix_spawn", code: .invalidArgument) }
    var actions = posix_spawn_file_actions_t()
    posix_spawn_file_actions_init(&actions)
    defer { posix_spawn_file_actions_destroy(&actions) }
    for (descriptor, stream) in [(Int32(0), standardInput), (1, standardOutput), (2, standardError)] {
      if case .file(let path, let access, let options) = stream {
        posix_spawn_file_actions_addopen(&actions, descriptor, path, access.flag | options.rawValue, 0o644)
      }
    }
    try checkReturnedErrno("posix_spawn", clinux_spawn_close_from(&actions, 3))
    var attributes = posix_spawnattr_t()
    posix_spawnattr_init(&attributes)
    defer { posix_spawnattr_destroy(&attributes) }
    var none = sigset_t()
    sigemptyset(&none)
    var every = sigset_t()
    sigfillset(&every)
    posix_spawnattr_setsigmask(&attributes, &none)
    posix_spawnattr_setsigdefault(&attributes, &every)
    var flags = POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF
    if newProcessGroup {
      posix_spawnattr_setpgroup(&attributes, 0)
      flags |= POSIX_SPAWN_SETPGROUP
    }
    posix_spawnattr_setflags(&attributes, Int16(flags))
    let argv = arguments.map { strdup($0) } + [nil]
    let envp = (environment ?? Environment.all).map { strdup($0) } + [nil]
    defer {
      argv.forEach { free($0) }
      envp.forEach { free($0) }
    }
    var pid: pid_t = 0
    try checkReturnedErrno(
      "posix_spawn \(program)", posix_spawn(&pid, program, &actions, &attributes, argv, envp))
    guard let child = ProcessID(pid) else { throw SystemError("posix_spawn \(program)", code: .noChild) }
    return child
  }
}
