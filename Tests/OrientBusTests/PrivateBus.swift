import Foundation
import Glibc
import Testing

/// A private dbus-daemon for one test: its config, socket and log live in a scratch
/// directory of its own, removed with the bus.
final class PrivateBus {
  /// The scratch directory.
  let directory: String
  /// The address the daemon printed once it listened (`unix:path=...,guid=...`).
  let address: String
  private let daemon: Process

  init() throws {
    var template = Array("/tmp/orientd-test.XXXXXX".utf8CString)
    guard let made = mkdtemp(&template) else { throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO) }
    directory = String(cString: made)
    // The package's one private-bus config, shared with the other tests and the benchmark.
    let fixture = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
      .appendingPathComponent("Fixtures/private-system-bus.conf")
    let config = try String(contentsOf: fixture, encoding: .utf8)
      .replacingOccurrences(of: "@BUS@", with: directory + "/bus")
    try config.write(toFile: directory + "/bus.conf", atomically: true, encoding: .utf8)
    daemon = Process()
    daemon.executableURL = URL(fileURLWithPath: "/usr/bin/dbus-daemon")
    daemon.arguments = ["--config-file=\(directory)/bus.conf", "--nofork", "--print-address"]
    let output = Pipe()
    daemon.standardOutput = output
    daemon.standardError = FileHandle(forWritingAtPath: "/dev/null")
    try daemon.run()
    // --print-address writes the address once the socket listens: reading it waits for that
    // event, and an early exit ends the output instead.
    var printed = Data()
    while !printed.contains(UInt8(ascii: "\n")) {
      let chunk = output.fileHandleForReading.availableData
      if chunk.isEmpty { break }
      printed.append(chunk)
    }
    let line = String(decoding: printed, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
    guard line.hasPrefix("unix:") else {
      if daemon.isRunning { _ = Glibc.kill(daemon.processIdentifier, SIGKILL) }
      daemon.waitUntilExit()
      try? FileManager.default.removeItem(atPath: directory)
      Issue.record("dbus-daemon printed no address: \(line)")
      throw POSIXError(.EIO)
    }
    address = line
  }

  deinit {
    stop()
    try? FileManager.default.removeItem(atPath: directory)
  }

  /// Kills the daemon, without waiting for it: the bus goes away as when it crashes.
  ///
  /// SIGKILL, because the daemon inherits the test runner's signal mask, which blocks SIGTERM.
  func kill() {
    // Our own child, not yet waited for: its pid cannot have been reused.
    let pid = daemon.processIdentifier
    if daemon.isRunning, pid > 0 { _ = Glibc.kill(pid, SIGKILL) }
  }

  /// Stops the daemon and waits for it.
  func stop() {
    kill()
    daemon.waitUntilExit()
  }

  /// Each name on the bus and the unique name of its owner, as `busctl list` shows them.
  func owners() throws -> [String: String] {
    let busctl = Process()
    busctl.executableURL = URL(fileURLWithPath: "/usr/bin/busctl")
    busctl.arguments = ["--address=\(address)", "list", "--no-pager", "--json=short"]
    let output = Pipe()
    busctl.standardOutput = output
    try busctl.run()
    let data = output.fileHandleForReading.readDataToEndOfFile()
    busctl.waitUntilExit()
    try #require(busctl.terminationStatus == 0, "busctl list failed")
    let rows = try #require(try JSONSerialization.jsonObject(with: data) as? [[String: Any]])
    var owners: [String: String] = [:]
    for row in rows {
      if let name = row["name"] as? String, let connection = row["connection"] as? String {
        owners[name] = connection
      }
    }
    return owners
  }
}
