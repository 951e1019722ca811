import Foundation
import Testing

/// Builds trace files sample by sample, at a fixed step.
struct TraceBuilder {
  private(set) var lines = ["# orientd-trace 1"]
  /// The time of the next sample, in milliseconds.
  private(set) var milliseconds = 0
  let stepMilliseconds: Int

  init(stepMilliseconds: Int) { self.stepMilliseconds = stepMilliseconds }

  /// Appends one sample at the current time and advances the clock.
  mutating func add(_ x: Double, _ y: Double, _ z: Double) {
    let seconds = String(format: "%d.%03d", milliseconds / 1000, milliseconds % 1000)
    lines.append(String(format: "%@ %.6f %.6f %.6f", seconds, x, y, z))
    milliseconds += stepMilliseconds
  }

  /// Moves the clock on by `milliseconds` without a sample.
  mutating func wait(milliseconds: Int) { self.milliseconds += milliseconds }

  /// Holds one gravity vector for `count` samples.
  mutating func hold(_ x: Double, _ y: Double, _ z: Double, count: Int) {
    for _ in 0..<count { add(x, y, z) }
  }

  /// An upright device tilted `degrees` from normal towards left-up.
  mutating func upright(degrees: Double) {
    let radians = degrees * .pi / 180
    add(sin(radians), -cos(radians), 0)
  }

  /// An upright device tilted `degrees` backwards from normal towards lying face-up.
  mutating func backward(degrees: Double) {
    let radians = degrees * .pi / 180
    add(0, -cos(radians), -sin(radians))
  }

  /// Writes the trace to a new file in the scratch directory and returns its path.
  func write() throws -> String {
    let path = try Scratch.current().makeDirectory("trace") + "/test.trace"
    try (lines.joined(separator: "\n") + "\n").write(toFile: path, atomically: true, encoding: .utf8)
    return path
  }
}

/// Runs `orientd --dump --replay TRACE EXTRA...` and returns its stdout lines, requiring exit 0.
func dumpReplay(_ trace: TraceBuilder, _ extra: [String] = []) throws -> [String] {
  let path = try trace.write()
  let result = try runToCompletion([TestPaths.orientd, "--dump", "--replay", path] + extra)
  try #require(result.status == 0, "orientd exited \(result.status): \(result.stderr)")
  return result.stdout.split(separator: "\n").map(String.init)
}

/// A `--dump` line without its time, e.g. `device normal`.
func dropTime(_ line: String) -> String {
  line.split(separator: " ", maxSplits: 1).dropFirst().first.map(String.init) ?? line
}
