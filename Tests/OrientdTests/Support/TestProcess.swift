import CLinux
import Foundation
import Testing

/// A child process spawned with posix_spawn, its output going to files.
///
/// Files instead of pipes: a test can read what was written so far at any
/// time, and a grandchild holding a pipe can never hang the test.
final class TestProcess {
  let pid: pid_t
  let stdoutPath: String
  let stderrPath: String
  private(set) var exitStatus: Int32?

  /// Starts `arguments[0]` (a path) with the rest as arguments; stdin is /dev/null unless given.
  init(
    _ arguments: [String], environment: [String: String]? = nil, stdinPath: String = "/dev/null",
    stdinFlags: Int32 = O_RDONLY
  ) throws {
    let directory = try TestPaths.scratchDirectory()
    stdoutPath = directory + "/stdout"
    stderrPath = directory + "/stderr"
    var actions = posix_spawn_file_actions_t()
    posix_spawn_file_actions_init(&actions)
    defer { posix_spawn_file_actions_destroy(&actions) }
    posix_spawn_file_actions_addopen(&actions, 0, stdinPath, stdinFlags, 0)
    posix_spawn_file_actions_addopen(&actions, 1, stdoutPath, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
    posix_spawn_file_actions_addopen(&actions, 2, stderrPath, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
    // Tests run in parallel: without this a child inherits other tests' sockets and files.
    clinux_spawn_close_from(&actions, 3)
    var attributes = posix_spawnattr_t()
    posix_spawnattr_init(&attributes)
    defer { posix_spawnattr_destroy(&attributes) }
    // Start with no signals blocked or ignored, whatever the test runner did.
    var noSignals = sigset_t()
    sigemptyset(&noSignals)
    posix_spawnattr_setsigmask(&attributes, &noSignals)
    var defaults = sigset_t()
    sigemptyset(&defaults)
    sigaddset(&defaults, SIGPIPE)
    posix_spawnattr_setsigdefault(&attributes, &defaults)
    posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF))

    let environment = environment ?? ProcessInfo.processInfo.environment
    let argv = arguments.map { strdup($0) } + [nil]
    let envp = environment.map { strdup("\($0)=\($1)") } + [nil]
    defer {
      argv.forEach { free($0) }
      envp.forEach { free($0) }
    }
    var child: pid_t = 0
    let result = posix_spawn(&child, arguments[0], &actions, &attributes, argv, envp)
    guard result == 0 else {
      throw POSIXError(POSIXErrorCode(rawValue: result) ?? .EIO)
    }
    pid = child
  }

  deinit {
    if exitStatus == nil {
      kill(pid, SIGKILL)
      _ = waitForExit(timeout: 5)
    }
  }

  /// What the process wrote to stdout so far.
  var stdout: String { (try? String(contentsOfFile: stdoutPath, encoding: .utf8)) ?? "" }

  /// What the process wrote to stderr so far.
  var stderr: String { (try? String(contentsOfFile: stderrPath, encoding: .utf8)) ?? "" }

  /// The complete lines on stdout so far.
  var stdoutLines: [String] {
    let text = stdout
    let complete =
      text.hasSuffix("\n") ? text : String(text[..<(text.lastIndex(of: "\n") ?? text.startIndex)])
    return complete.split(separator: "\n", omittingEmptySubsequences: true).map(String.init)
  }

  /// Sends a signal.
  func signal(_ signal: Int32) { kill(pid, signal) }

  /// Waits until the process exits; returns its status (128 + signal if killed), or nil on timeout.
  @discardableResult
  func waitForExit(timeout: Double) -> Int32? {
    if let exitStatus { return exitStatus }
    let deadline = Date().addingTimeInterval(timeout)
    repeat {
      var status: Int32 = 0
      let result = waitpid(pid, &status, WNOHANG)
      if result == pid {
        let signalled = status & 0x7f
        exitStatus = signalled == 0 ? (status >> 8) & 0xff : 128 + signalled
        return exitStatus
      }
      usleep(5_000)
    } while Date() < deadline
    return nil
  }

  /// Waits until stdout has at least `count` complete lines; returns them (maybe fewer on timeout).
  @discardableResult
  func waitForLines(_ count: Int, timeout: Double = 10) -> [String] {
    let deadline = Date().addingTimeInterval(timeout)
    var lines = stdoutLines
    while lines.count < count, Date() < deadline {
      usleep(5_000)
      lines = stdoutLines
    }
    return lines
  }

  /// Waits until stdout or stderr contains `text`.
  @discardableResult
  func waitFor(_ text: String, inStderr: Bool = false, timeout: Double = 10) -> Bool {
    let deadline = Date().addingTimeInterval(timeout)
    repeat {
      if (inStderr ? stderr : stdout).contains(text) { return true }
      usleep(5_000)
    } while Date() < deadline
    return false
  }
}

/// Runs a command to completion and returns its status, stdout and stderr.
func runToCompletion(
  _ arguments: [String], environment: [String: String]? = nil, timeout: Double = 30
) throws -> (status: Int32, stdout: String, stderr: String) {
  let process = try TestProcess(arguments, environment: environment)
  let status = try #require(
    process.waitForExit(timeout: timeout), "\(arguments) did not finish in \(timeout) s")
  return (status, process.stdout, process.stderr)
}
