import OrientSystem

/// A program to run on a change: a shell command, or an executable file.
package struct HookCommand: Equatable, Sendable {
  /// How the log names it.
  package var description: String
  /// The program and its arguments.
  package var arguments: [String]

  /// A command line run by /bin/sh.
  package static func shell(_ command: String) -> HookCommand {
    HookCommand(description: command, arguments: ["/bin/sh", "-c", command])
  }

  /// An executable run directly with `arguments`; a bare name is looked up on `$PATH`.
  package static func program(_ arguments: [String]) -> HookCommand {
    var resolved = arguments
    if let name = arguments.first, !name.contains("/"), let path = Environment.findExecutable(name) {
      resolved[0] = path
    }
    return HookCommand(description: arguments.joined(separator: " "), arguments: resolved)
  }

  /// Why the program cannot be started, or nil when it can: the program must be an executable
  /// regular file (a bare name, one found on `$PATH`).
  package var startProblem: String? {
    guard let program = arguments.first else { return "no command given" }
    // `program` resolves a bare name only when $PATH has it.
    guard program.contains("/") else { return "\(program): command not found on $PATH" }
    let status: FileStatus
    do {
      status = try FileSystem.status(of: program)
    } catch  where error.code == .noSuchFile {
      return "\(program): no such file"
    } catch {
      return "\(program): \(error.code)"
    }
    guard status.kind == .regular else { return "\(program): is \(status.kind.name), not a program" }
    guard FileSystem.isExecutableFile(program) else { return "\(program): not executable" }
    return nil
  }

  /// Every executable regular file in `directory` whose name does not start with a dot, in
  /// name order, that only root or this process's user could have written: owned by one of
  /// them, and not writable by group or others (orientd runs them as root).
  package static func directory(_ directory: String) -> [HookCommand] {
    // One that cannot be listed runs no hooks: orientd checks the directory at start and at
    // each reload and logs what is wrong with it.
    let names = (try? FileSystem.entries(of: directory)) ?? []
    return names.filter { !$0.hasPrefix(".") && isTrustedExecutable(directory + "/" + $0) }.sorted()
      .map { program([directory + "/" + $0]) }
  }

  /// Whether `path` is an executable that no user but root or this process's could have put
  /// there or changed (a link is judged by what it points to).
  static func isTrustedExecutable(_ path: String) -> Bool {
    // What cannot be examined cannot be trusted: false is the answer, not a lost error.
    guard FileSystem.isExecutableFile(path), let status = try? FileSystem.status(of: path) else {
      return false
    }
    return status.kind == .regular && status.isOwnedByRootOrUs && status.permissions & 0o022 == 0
  }
}
