import Foundation
import Testing

/// A FIFO a test writes lines into, handed to a process as its stdin. The test holds it open
/// read-write, so the process's open never waits and its reads see the end only when the
/// test closes it (or dies).
final class LineFeed {
  let path: String
  private var writer: Int32

  init(in directory: String, name: String = "stdin") throws {
    path = directory + "/" + name
    guard mkfifo(path, 0o600) == 0 else { throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO) }
    writer = open(path, O_RDWR | O_CLOEXEC)
    guard writer >= 0 else { throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO) }
  }

  deinit { close() }

  /// Writes `line` and a newline.
  func send(_ line: String) {
    let bytes = Array((line + "\n").utf8)
    let written = bytes.withUnsafeBytes { Glibc.write(writer, $0.baseAddress, $0.count) }
    if written != bytes.count { Issue.record("cannot write '\(line)' to \(path)") }
  }

  /// Ends the stream: the reader sees the end of its input.
  func close() {
    if writer >= 0 { _ = Glibc.close(writer) }
    writer = -1
  }
}

/// A program run in a umockdev testbed of fake evdev switches (and, if asked, a fake
/// /dev/uinput), by Tests/Fixtures/input-testbed.py, which the test drives through `send`:
/// `switch tablet tablet 1`, `add lid`, `unplug lid`, `vanish tablet`, `fail tablet 5`,
/// `hangup tablet`, `input TEXT` (a line for the program's stdin); the script documents them.
///
/// Devices are named after their fixtures, Tests/Fixtures/input-NAME.umockdev and
/// input-NAME.ioctl. The program's stdout and stderr, and the script's acknowledgements and
/// what the fake uinput was told, are in `process`'s files.
final class FakeInputRun: FakeSysfs {
  let process: TestProcess
  /// The testbed's root, once the script has made it (empty if it never said).
  let testbed: String
  /// The IIO devices `others`, whose attributes `FakeSysfs` reads and writes.
  let devices: [FakeDevice]
  /// The program's pid, as the script that started it says (0 if it never said).
  let programPID: pid_t
  private let commands: LineFeed

  /// Starts `program` (default: `orientd-testbench switches`) with `devices` present and the
  /// IIO devices `others`. With
  /// `uinput`, /dev/uinput is faked (`nameless`: without UI_GET_SYSNAME). orientd gets the arguments that keep it off the host's paths.
  init(
    devices: [String], others: [FakeDevice] = [],
    uinput: Bool = false, nameless: Bool = false, program: [String] = [TestPaths.testbench, "switches"]
  ) throws {
    let scratch = try Scratch.current()
    let directory = try scratch.makeDirectory("input")
    commands = try LineFeed(in: directory)
    let script = TestPaths.packageRoot + "/Tests/Fixtures/input-testbed.py"
    var options =
      devices.flatMap { ["--device", $0] } + (uinput ? [nameless ? "--uinput-nameless" : "--uinput"] : [])
    if !others.isEmpty {
      let file = directory + "/others.umockdev"
      try others.map(\.umockdevText).joined(separator: "\n").write(
        toFile: file, atomically: true, encoding: .utf8)
      options += ["--describe", file]
    }
    var program = program
    if program.first == TestPaths.orientd {
      program =
        [TestPaths.orientd]
        + (try TestPaths.isolated(orientdArguments: Array(program.dropFirst()), in: scratch))
    }
    process = try TestProcess(
      ["/usr/bin/python3", script, TestPaths.packageRoot + "/Tests/Fixtures"] + options + ["--"] + program,
      stdinPath: commands.path)
    self.devices = others
    let process = process
    _ = process.waitFor("testbed: started ", inStderr: true)
    let said = { (prefix: String) in
      process.stderr.split(separator: "\n").first { $0.hasPrefix(prefix) }.map {
        String($0.dropFirst(prefix.count))
      }
    }
    testbed = said("testbed: root ") ?? ""
    programPID = said("testbed: started ").flatMap { pid_t($0) } ?? 0
  }

  /// Sends one command to the testbed.
  func send(_ command: String) { commands.send(command) }

  /// The program's output lines, without the testbed's (the program's stdout is the script's).
  var lines: [String] { process.stdoutLines }

  /// Waits until the program has printed `count` lines; returns them.
  @discardableResult
  func waitForLines(_ count: Int) -> [String] { process.waitForLines(count) }

  /// Whether the log (stderr) shows `text`, waiting for it.
  func logs(_ text: String, count: Int = 1) -> Bool { process.waitFor(text, inStderr: true, count: count) }

  /// Ends the program (its stdin closes) and the testbed; returns the script's status.
  func stop() -> Int32? {
    commands.close()
    return process.waitForExit()
  }
}
