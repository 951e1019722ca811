import CLinux
import Glibc
import OrientSystem

/// Starts `arguments[0]` with stdout and stderr to files and no inherited descriptors.
func spawnProcess(_ arguments: [String], stdout: String, stderr: String) throws -> pid_t {
  var actions = posix_spawn_file_actions_t()
  posix_spawn_file_actions_init(&actions)
  defer { posix_spawn_file_actions_destroy(&actions) }
  posix_spawn_file_actions_addopen(&actions, 1, stdout, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
  posix_spawn_file_actions_addopen(&actions, 2, stderr, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
  clinux_spawn_close_from(&actions, 3)
  let argv = arguments.map { strdup($0) } + [nil]
  defer { argv.forEach { free($0) } }
  var child: pid_t = 0
  let result = posix_spawn(&child, arguments[0], &actions, nil, argv, environ)
  guard result == 0 else { throw SystemError("posix_spawn \(arguments[0])", code: result) }
  return child
}
