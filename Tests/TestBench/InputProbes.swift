import Glibc
import OrientInput
import OrientSystem

// `orientd-testbench switches` and `orientd-testbench virtual-switch`: probes for the tests,
// run on fake input devices. They print one line per reading or command, and the log on
// stderr, until SIGTERM, SIGINT or the end of stdin.
//
// switches        prints `tablet yes|no|none lid yes|no|none` at start and on every change,
//                 and `switches SUMMARY` at start and for each `summary` line on stdin
// virtual-switch  creates the virtual tablet-mode switch (`virtual switch created|none`) and
//                 sets it for each `tablet` or `laptop` line on stdin (`set MODE`)

/// Runs the probe `name` (`switches` or `virtual-switch`) with `options` and exits.
func runInputProbe(_ name: String, options: [String]) -> Never {
  Log.program = "orientd-testbench"
  if options.contains("--verbose") { Log.threshold = .debug }
  do {
    let loop = try EventLoop()
    let signals = try SignalWatcher(loop: loop, signals: [.interrupt, .terminate]) { _ in loop.stop() }
    if name == "switches" { try probeSwitches(loop) } else { try probeVirtualSwitch(loop) }
    _ = signals
  } catch {
    StandardStream.error.report("orientd-testbench: \(name): \(error)\n")
    exit(1)
  }
  exit(0)
}

private func probeSwitches(_ loop: EventLoop) throws(SystemError) {
  let watcher = TabletSwitchWatcher(loop: loop) { readings in
    StandardStream.output.report("tablet \(probeWord(readings.tablet)) lid \(probeWord(readings.lid))\n")
  }
  watcher.start()
  StandardStream.output.report("switches \(watcher.summary)\n")
  try runProbeLoop(loop) { line in
    if line == "summary" { StandardStream.output.report("switches \(watcher.summary)\n") }
  }
  watcher.stop()
}

private func probeVirtualSwitch(_ loop: EventLoop) throws(SystemError) {
  let virtual = VirtualTabletSwitch()
  StandardStream.output.report(virtual == nil ? "virtual switch none\n" : "virtual switch created\n")
  try runProbeLoop(loop) { line in
    guard line == "tablet" || line == "laptop" else { return }
    virtual?.set(tablet: line == "tablet")
    StandardStream.output.report("set \(line)\n")
  }
  // Destroyed here, before the process exits: the device goes with UI_DEV_DESTROY.
  withExtendedLifetime(virtual) {}
}

/// Runs the loop, handing each line of stdin to `command`, until a signal or stdin's end.
private func runProbeLoop(_ loop: EventLoop, _ command: @escaping (String) -> Void) throws(SystemError) {
  var lines = ProbeInput()
  // Without a stdin epoll can watch (/dev/null, a file), only a signal ends the probe.
  let input = try? loop.watch(StandardStream.input.descriptor) { _ in
    guard let received = lines.read() else { return loop.stop() }
    for line in received { command(line) }
  }
  try loop.run()
  if let input { loop.unwatch(input) }
}

private func probeWord(_ value: Bool?) -> String {
  switch value {
  case .some(true): "yes"
  case .some(false): "no"
  case .none: "none"
  }
}

/// Lines from stdin, read when it is ready; nil at its end.
private struct ProbeInput {
  private var pending: [UInt8] = []

  mutating func read() -> [String]? {
    var buffer = [UInt8](repeating: 0, count: 512)
    let count =
      (try? buffer.withUnsafeMutableBytes { bytes throws(SystemError) in
        try StandardStream.input.read(into: bytes)
      }) ?? 0
    guard count > 0 else { return nil }
    pending += buffer[..<count]
    var lines: [String] = []
    while let newline = pending.firstIndex(of: 10) {
      lines.append(String(decoding: pending[..<newline], as: UTF8.self))
      pending.removeSubrange(...newline)
    }
    // A line longer than this is dropped, not kept growing.
    if pending.count > 4096 { pending = [] }
    return lines
  }
}
