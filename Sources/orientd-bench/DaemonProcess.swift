import OrientSystem

/// An orientd started for measuring, serving a socket in a scratch directory.
///
/// `try?` here: waiting for the socket retries until it answers, and stopping the daemon is
/// teardown (a daemon already gone is the goal).
final class DaemonProcess {
  let pid: ProcessID
  let socket: String
  private let scratch: ScratchDirectory

  /// Starts `binary` holding the normal orientation from a one-sample trace, with `extra`
  /// options, and waits until its socket answers.
  init(binary: String, extra: [String]) throws {
    scratch = try ScratchDirectory()
    let directory = scratch.path
    socket = directory + "/s"
    let trace = directory + "/hold.trace"
    try FileDescriptor.open(trace, .writeOnly, options: [.create, .truncate]).writeAll(
      "# orientd-trace 1\n0 0 -1 0\n")
    var spawn = Spawn(
      [
        binary, "--replay", trace, "--settle", "0", "--socket", socket, "--state", directory + "/state",
        "--config", directory + "/none.conf",
      ] + extra)
    spawn.standardOutput = .file(directory + "/stdout", .writeOnly, [.create, .truncate])
    spawn.standardError = .file(directory + "/stderr", .writeOnly, [.create, .truncate])
    // An empty config, so the machine's /etc/orientd/orientd.conf plays no part.
    try FileDescriptor.open(directory + "/none.conf", .writeOnly, options: [.create, .truncate]).writeAll("")
    pid = try spawn.start()
    // Serving means the snapshot arrives, device and orientation included.
    for _ in 0..<500 {
      if let client = try? BenchClient(path: socket), client.readGreeting() { return }
      pause(for: .milliseconds(10))
    }
    stop()
    throw SystemError("orientd did not serve \(socket)", code: .timedOut)
  }

  /// What the daemon costs in memory now.
  var memory: ProcessMemory { ProcessMemory(pid: pid) }

  /// Stops the daemon and waits for it.
  func stop() {
    try? pid.send(.terminate)
    _ = try? pid.wait()
  }
}
