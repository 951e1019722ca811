import Foundation
import Testing

/// Sends `signal` to the one process `pid`, and only to it.
///
/// kill(2) reads 0 as "my process group" and negative numbers as other groups or every
/// process: a pid parsed from an empty or half-written file would signal the test runner
/// itself. Those are refused and reported, by default as a test failure. Every signal a
/// test sends goes through here.
@discardableResult
func sendSignal(
  _ signal: Int32, to pid: pid_t, _ what: String,
  report: (String) -> Void = { Issue.record(Comment(rawValue: $0)) }
) -> Bool {
  guard pid > 0 else {
    report("refusing to send signal \(signal) to pid \(pid) (\(what)): not a single process")
    return false
  }
  return kill(pid, signal) == 0
}

/// Reads and checks a pid handed over in a file: a positive number, or nil, reported (by
/// default as a test failure).
func parsePID(
  _ text: String, from what: String, report: (String) -> Void = { Issue.record(Comment(rawValue: $0)) }
) -> pid_t? {
  guard let pid = pid_t(text.trimmingCharacters(in: .whitespacesAndNewlines)), pid > 0 else {
    report("\(what) holds '\(text)', not a pid")
    return nil
  }
  return pid
}

/// The fields of /proc/PID/stat after the command name (state is the first), or nil once the
/// process is gone.
private func statFields(of pid: pid_t, thread: pid_t? = nil) -> [Substring]? {
  let path = thread.map { "/proc/\(pid)/task/\($0)/stat" } ?? "/proc/\(pid)/stat"
  guard let text = try? String(contentsOfFile: path, encoding: .utf8),
    let close = text.lastIndex(of: ")")
  else { return nil }
  return text[text.index(after: close)...].split(separator: " ")
}

/// The parent of `pid`, or nil once it is gone.
func parentPID(of pid: pid_t) -> pid_t? {
  statFields(of: pid).flatMap { $0.count > 1 ? pid_t($0[1]) : nil }
}

/// Whether `pid` exists and is not a zombie.
func isAlive(_ pid: pid_t) -> Bool {
  guard let state = statFields(of: pid)?.first else { return false }
  return state != "Z" && state != "X"
}

/// Whether `pid` is stopped by a signal (SIGSTOP and the like).
func isStopped(_ pid: pid_t) -> Bool { statFields(of: pid)?.first == "T" }

/// The arguments `pid` was started with; empty for zombies and kernel threads, nil once gone.
func commandLine(of pid: pid_t) -> [String]? {
  guard let data = FileManager.default.contents(atPath: "/proc/\(pid)/cmdline") else { return nil }
  return data.split(separator: 0, omittingEmptySubsequences: false).dropLast().map {
    String(decoding: $0, as: UTF8.self)
  }
}

/// Every live process but this one whose arguments mention `text` (a scratch directory's path:
/// the hooks, wrappers and daemons a test started).
func processes(mentioning text: String) -> [(pid: pid_t, arguments: [String])] {
  let own = getpid()
  let entries = (try? FileManager.default.contentsOfDirectory(atPath: "/proc")) ?? []
  return entries.compactMap { entry in
    guard let pid = pid_t(entry), pid != own, let arguments = commandLine(of: pid),
      arguments.contains(where: { $0.contains(text) }), isAlive(pid)
    else { return nil }
    return (pid, arguments)
  }
}

/// Every live process that runs the program at `path` (its first argument).
func processes(running path: String) -> [(pid: pid_t, arguments: [String])] {
  processes(mentioning: path).filter { $0.arguments.first == path }
}

/// Kills processes found by `processes(mentioning:)` and waits until they are gone.
/// Returns whether they all went.
@discardableResult
func killAll(_ found: [(pid: pid_t, arguments: [String])]) -> Bool {
  for (pid, arguments) in found {
    // Only a process that still runs the same command: the pid was not reused meanwhile.
    guard commandLine(of: pid) == arguments else { continue }
    sendSignal(SIGKILL, to: pid, arguments.joined(separator: " "))
  }
  return waitUntil { found.allSatisfy { !isAlive($0.pid) || commandLine(of: $0.pid) != $0.arguments } }
}

/// The threads of `pid` that sleep in the kernel function `wchan` (for example `wait_for_partner`,
/// an open of a FIFO that has no writer), inside system call number `syscall`.
func threads(of pid: pid_t, sleepingIn wchan: String, syscall: Int) -> [pid_t] {
  let tasks = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/\(pid)/task")) ?? []
  return tasks.compactMap { pid_t($0) }.filter { thread in
    let base = "/proc/\(pid)/task/\(thread)"
    guard statFields(of: pid, thread: thread)?.first == "S",
      (try? String(contentsOfFile: base + "/wchan", encoding: .utf8)) == wchan,
      let call = try? String(contentsOfFile: base + "/syscall", encoding: .utf8)
    else { return false }
    return call.split(separator: " ").first == Substring(String(syscall))
  }
}

/// VmRSS of a process in kB.
func residentKilobytes(of pid: pid_t) -> Int? {
  guard let status = try? String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8) else { return nil }
  for line in status.split(separator: "\n") where line.hasPrefix("VmRSS:") {
    return Int(line.split(separator: " ", omittingEmptySubsequences: true)[1])
  }
  return nil
}

/// Open socket descriptors of a process.
func openSockets(of pid: pid_t) -> Int {
  let entries = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/\(pid)/fd")) ?? []
  return entries.filter {
    ((try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/\(pid)/fd/\($0)")) ?? "").hasPrefix(
      "socket:")
  }.count
}
