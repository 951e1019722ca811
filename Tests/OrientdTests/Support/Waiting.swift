import Foundation

/// How long a test waits for something that should happen. Generous on purpose: the tests
/// run in parallel, often on a loaded machine, and a wait only takes this long when the
/// awaited event never comes, which fails the test anyway.
let patience: Double = 30

/// How long a test waits for a peer program to come up (iio-sensor-proxy under umockdev, a bus
/// daemon) before the test's own clock starts: a peer that starts slowly on a loaded machine
/// must not eat the time the test gives the behaviour it checks.
let startupPatience: Double = 4 * patience

/// Checks `condition` every few milliseconds until it holds or `timeout` seconds have passed;
/// returns whether it held. The only polling loop in the tests: every wait goes through it.
@discardableResult
func waitUntil(timeout: Double = patience, _ condition: () throws -> Bool) rethrows -> Bool {
  let end = deadline(in: timeout)
  while true {
    if try condition() { return true }
    if ContinuousClock.now >= end { return false }
    // The polling interval, not a wait for anything in particular.
    usleep(5_000)
  }
}

/// A duration in seconds.
func seconds(_ duration: Duration) -> Double {
  Double(duration.components.seconds) + Double(duration.components.attoseconds) / 1e18
}

/// The instant `timeout` seconds from now on the monotonic clock.
func deadline(in timeout: Double) -> ContinuousClock.Instant {
  ContinuousClock.now + .milliseconds(Int(timeout * 1000))
}

/// Waits until the file at `path` contains `text`.
func waitForFile(_ path: String, toContain text: String, timeout: Double = patience) -> Bool {
  waitUntil(timeout: timeout) { fileText(path).contains(text) }
}

/// Waits until the file at `path` has at least `count` lines; returns its lines (fewer on timeout).
@discardableResult
func waitForLines(inFile path: String, _ count: Int, timeout: Double = patience) -> [String] {
  var lines: [String] = []
  waitUntil(timeout: timeout) {
    lines = completeLines(fileText(path))
    return lines.count >= count
  }
  return lines
}

/// The text of a file, or "" when it cannot be read (yet).
func fileText(_ path: String) -> String {
  (try? String(contentsOfFile: path, encoding: .utf8)) ?? ""
}

/// The newline-terminated lines of `text`, without a partial last line.
func completeLines(_ text: String) -> [String] {
  let complete = text.hasSuffix("\n") ? text : String(text[..<(text.lastIndex(of: "\n") ?? text.startIndex)])
  return complete.split(separator: "\n", omittingEmptySubsequences: false).map(String.init).filter {
    !$0.isEmpty
  }
}

/// How many times `text` occurs in `haystack`.
func occurrences(of text: String, in haystack: String) -> Int {
  haystack.components(separatedBy: text).count - 1
}

/// Writes a config file for orientd at `path`, mode 0644 whatever the test process's umask:
/// orientd refuses a config others may write.
func writeConfigFile(_ text: String, to path: String) throws {
  try text.write(toFile: path, atomically: true, encoding: .utf8)
  guard chmod(path, 0o644) == 0 else {
    throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO)
  }
}
