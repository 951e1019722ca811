import Foundation
import Testing

/// A test's own scratch directory: every socket, state file, trace, log and testbed of the
/// test lives in it, and it is removed, with everything in it, when the test ends.
///
/// Suites get one per test (per argument, for parameterized tests) through the `.scratch`
/// trait; helpers find it with `Scratch.current()`. When the test ends, every process it
/// started must be gone before the directory is removed: a process still running is a
/// test failure, and is killed.
final class Scratch: @unchecked Sendable {
  @TaskLocal static var active: Scratch?

  /// The running test's scratch directory.
  static func current(sourceLocation: SourceLocation = #_sourceLocation) throws -> Scratch {
    guard let active else {
      Issue.record(
        "this test has no scratch directory: give its suite the .scratch trait",
        sourceLocation: sourceLocation)
      throw POSIXError(.ENOENT)
    }
    return active
  }

  /// The directory, short enough under /tmp for socket paths (at most 107 bytes).
  let path: String
  private let lock = NSLock()
  private var registered: [WeakProcess] = []
  private var configPath: String?

  private struct WeakProcess {
    weak var process: TestProcess?
  }

  init() throws {
    var template = Array("/tmp/orientd-test.XXXXXX".utf8CString)
    guard let made = mkdtemp(&template) else { throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO) }
    path = String(cString: made)
  }

  /// `name` inside the directory (not created).
  func path(_ name: String) -> String { path + "/" + name }

  /// A new, empty directory inside this one.
  func makeDirectory(_ prefix: String = "d") throws -> String {
    var template = Array("\(path)/\(prefix).XXXXXX".utf8CString)
    guard let made = mkdtemp(&template) else { throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO) }
    return String(cString: made)
  }

  /// An empty config file, for every orientd that is not given one: without `--config`,
  /// orientd reads /etc/orientd/orientd.conf.
  func emptyConfig() throws -> String {
    lock.lock()
    defer { lock.unlock() }
    if let configPath { return configPath }
    let path = path("empty.conf")
    // 0644 whatever the umask: see writeConfigFile.
    guard FileManager.default.createFile(atPath: path, contents: Data()), chmod(path, 0o644) == 0 else {
      throw POSIXError(.EIO)
    }
    configPath = path
    return path
  }

  /// The environment for the processes a test starts: this process's, without what would
  /// connect them to the host's service manager, message buses, desktop session or an
  /// installed orientd. `orientctl` without `--socket` reaches no daemon, iiod cannot
  /// announce itself through the host's avahi, and temporary files (umockdev's testbeds among
  /// them) land here.
  var environment: [String: String] { environment(basedOn: ProcessInfo.processInfo.environment) }

  /// `base` made safe for the processes a test starts, as `environment` is.
  func environment(basedOn base: [String: String]) -> [String: String] {
    var environment = base
    let hostOnly = [
      "NOTIFY_SOCKET", "WATCHDOG_USEC", "WATCHDOG_PID", "LISTEN_PID", "LISTEN_FDS", "LISTEN_FDNAMES",
      "JOURNAL_STREAM", "DBUS_SESSION_BUS_ADDRESS", "DISPLAY", "WAYLAND_DISPLAY", "SWAYSOCK",
      "HYPRLAND_INSTANCE_SIGNATURE", "KDE_FULL_SESSION",
    ]
    for name in environment.keys where hostOnly.contains(name) || name.hasPrefix("ORIENTD_") {
      environment[name] = nil
    }
    environment["ORIENTD_SOCKET"] = path("no-orientd.sock")
    environment["DBUS_SYSTEM_BUS_ADDRESS"] = "unix:path=" + path("no-system-bus")
    environment["XDG_RUNTIME_DIR"] = path
    environment["TMPDIR"] = path
    return environment
  }

  /// Notes a process the test started, to check at the end that it is gone.
  func register(_ process: TestProcess) {
    lock.lock()
    defer { lock.unlock() }
    registered.append(WeakProcess(process: process))
  }

  /// Ends the test's use of the directory: no process it started may still run (any that
  /// does is a failure, and is killed), nothing may stay mounted in it, then it goes.
  func finish() {
    lock.lock()
    let started = registered.compactMap(\.process)
    registered = []
    lock.unlock()
    for process in started where process.isRunning {
      Issue.record("\(process.name) (pid \(process.pid)) was still running when the test ended")
      process.kill()
    }
    // Hooks, wrapped daemons and their children: whatever was given a path in here.
    let leftovers = processes(mentioning: path)
    if !leftovers.isEmpty {
      let list = leftovers.map { "\($0.pid) \($0.arguments.joined(separator: " "))" }.joined(separator: "; ")
      Issue.record("still running when the test ended: \(list)")
      if !killAll(leftovers) { Issue.record("some of them survived SIGKILL") }
    }
    let mounts = fileText("/proc/self/mounts").split(separator: "\n").compactMap {
      $0.split(separator: " ").dropFirst().first.map(String.init)
    }.filter { $0.hasPrefix(path + "/") }
    for mount in mounts {
      Issue.record("\(mount) was still mounted when the test ended")
      umount2(mount, Int32(MNT_DETACH))
    }
    do {
      try FileManager.default.removeItem(atPath: path)
    } catch {
      Issue.record("cannot remove the scratch directory \(path): \(error)")
    }
  }
}

/// Gives each test of a suite its own scratch directory, removed when the test ends.
struct ScratchTrait: SuiteTrait, TestTrait, TestScoping {
  /// Whether the suite is also `.serialized`, which the trait cannot see for itself: its tests
  /// go first when they wait for a slot (see `TestAdmission.enter(first:)`).
  var serialized = false

  var isRecursive: Bool { true }

  func provideScope(
    for test: Test, testCase: Test.Case?, performing function: @Sendable () async throws -> Void
  ) async throws {
    // Off the cooperative pool, and so many at a time: see `BlockingTestExecutor` and
    // `TestAdmission`.
    await TestAdmission.shared.enter(first: serialized)
    do {
      try await withTaskExecutorPreference(BlockingTestExecutor.shared) {
        let scratch = try Scratch()
        defer { scratch.finish() }
        try await Scratch.$active.withValue(scratch) { try await function() }
      }
    } catch {
      await TestAdmission.shared.leave()
      throw error
    }
    await TestAdmission.shared.leave()
  }
}

extension Trait where Self == ScratchTrait {
  /// Each test gets its own scratch directory, removed (processes first) when it ends.
  static var scratch: Self { ScratchTrait() }

  /// The same, for a `.serialized` suite.
  static func scratch(serialized: Bool) -> Self { ScratchTrait(serialized: serialized) }
}
