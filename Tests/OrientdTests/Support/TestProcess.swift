import Foundation
import Testing

@testable import OrientSystem

/// A child process spawned with posix_spawn, its output going to files in the test's
/// scratch directory.
///
/// Files instead of pipes: a test can read what was written so far at any time, and a
/// grandchild holding a pipe can never hang the test. The process is killed, if it still
/// runs, when the object goes; the scratch directory it uses outlives it.
final class TestProcess {
  let pid: pid_t
  /// The program's name, for messages.
  let name: String
  let stdoutPath: String
  let stderrPath: String
  private(set) var exitStatus: Int32?
  /// Kept until the process is dead: its output and whatever it was given lives there.
  private let scratch: Scratch

  /// Starts `arguments[0]` (a path) with the rest as arguments; stdin is /dev/null unless
  /// given. The environment defaults to the scratch directory's; orientd gets the arguments
  /// that keep it off the host's paths (see `TestPaths.isolated`).
  init(
    _ arguments: [String], environment: [String: String]? = nil, stdinPath: String = "/dev/null",
    stdinAccess: AccessMode = .readOnly
  ) throws {
    let scratch = try Scratch.current()
    self.scratch = scratch
    var arguments = arguments
    if arguments.first == TestPaths.orientd {
      arguments =
        [TestPaths.orientd]
        + (try TestPaths.isolated(orientdArguments: Array(arguments.dropFirst()), in: scratch))
    }
    name = URL(fileURLWithPath: arguments[0]).lastPathComponent
    let directory = try scratch.makeDirectory("out")
    stdoutPath = directory + "/stdout"
    stderrPath = directory + "/stderr"
    // orientd's own spawn: only the three streams are inherited (tests run in parallel, and a
    // child must not hold other tests' sockets and files), no signal blocked or ignored.
    var spawn = Spawn(arguments, environment: (environment ?? scratch.environment).map { "\($0)=\($1)" })
    spawn.standardInput = .file(stdinPath, stdinAccess)
    spawn.standardOutput = .file(stdoutPath, .writeOnly, [.create, .truncate])
    spawn.standardError = .file(stderrPath, .writeOnly, [.create, .truncate])
    let child: pid_t
    do {
      child = try spawn.start().rawValue
    } catch {
      throw POSIXError(POSIXErrorCode(rawValue: error.code.rawValue) ?? .EIO)
    }
    pid = child
    scratch.register(self)
  }

  deinit { kill() }

  /// What the process wrote to stdout so far.
  var stdout: String { fileText(stdoutPath) }

  /// What the process wrote to stderr so far.
  var stderr: String { fileText(stderrPath) }

  /// The complete lines on stdout so far.
  var stdoutLines: [String] { completeLines(stdout) }

  /// Whether the process has not exited yet (reaping it if it has).
  var isRunning: Bool { reap() == nil }

  /// Sends a signal, unless the process has already exited: once reaped, its pid may belong
  /// to someone else.
  func signal(_ signal: Int32) {
    guard isRunning else { return }
    sendSignal(signal, to: pid, name)
  }

  /// Kills the process if it still runs and waits until it is gone.
  func kill() {
    guard isRunning else { return }
    signal(SIGKILL)
    if waitForExit() == nil { Issue.record("\(name) (pid \(pid)) survived SIGKILL") }
  }

  /// The exit status (128 + signal if killed) if the process has exited, reaping it.
  private func reap() -> Int32? {
    if let exitStatus { return exitStatus }
    var status: Int32 = 0
    guard waitpid(pid, &status, WNOHANG) == pid else { return nil }
    let signalled = status & 0x7f
    exitStatus = signalled == 0 ? (status >> 8) & 0xff : 128 + signalled
    return exitStatus
  }

  /// Waits until the process exits; returns its status (128 + signal if killed), or nil on timeout.
  @discardableResult
  func waitForExit(timeout: Double = patience) -> Int32? {
    waitUntil(timeout: timeout) { reap() != nil }
    return exitStatus
  }

  /// Waits until stdout has at least `count` complete lines; returns them (maybe fewer on timeout).
  @discardableResult
  func waitForLines(_ count: Int, timeout: Double = patience) -> [String] {
    var lines: [String] = []
    waitUntil(timeout: timeout) {
      lines = stdoutLines
      return lines.count >= count
    }
    return lines
  }

  /// Waits until stdout (or stderr) contains `text`, `count` times or more.
  @discardableResult
  func waitFor(_ text: String, inStderr: Bool = false, count: Int = 1, timeout: Double = patience) -> Bool {
    waitUntil(timeout: timeout) { occurrences(of: text, in: inStderr ? stderr : stdout) >= count }
  }
}

/// Runs a command to completion and returns its status, stdout and stderr.
func runToCompletion(
  _ arguments: [String], environment: [String: String]? = nil, timeout: Double = 2 * patience
) throws -> (status: Int32, stdout: String, stderr: String) {
  let process = try TestProcess(arguments, environment: environment)
  let status = try #require(
    process.waitForExit(timeout: timeout), "\(arguments) did not finish in \(timeout) s")
  return (status, process.stdout, process.stderr)
}
