import OrientSystem

/// What a process costs the machine in memory, in KiB: resident, proportional and unique.
///
/// VmRSS counts every shared page in full; Pss splits each shared page among the processes
/// that map it; USS (private clean + private dirty) is what the machine would get back if
/// the process ended. Only the last two say what one daemon really costs.
///
/// `try?` here: a process gone leaves its figures at zero, which the table shows as such.
struct ProcessMemory {
  var resident = 0
  var proportional = 0
  var unique = 0

  /// Reads /proc/PID/status and /proc/PID/smaps_rollup.
  init(pid: ProcessID) {
    let status = (try? FileSystem.readText("/proc/\(pid)/status")) ?? ""
    let rollup = (try? FileSystem.readText("/proc/\(pid)/smaps_rollup")) ?? ""
    resident = Self.field("VmRSS:", in: status)
    proportional = Self.field("Pss:", in: rollup)
    unique = Self.field("Private_Clean:", in: rollup) + Self.field("Private_Dirty:", in: rollup)
  }

  private static func field(_ name: String, in text: String) -> Int {
    for line in text.split(separator: "\n") where line.hasPrefix(name) {
      return Int(line.split(separator: " ", omittingEmptySubsequences: true).dropFirst().first ?? "") ?? 0
    }
    return 0
  }

  /// `5.6 / 3.7 / 2.9 MiB` (VmRSS / Pss / USS).
  var text: String {
    [resident, proportional, unique].map { fixed(Double($0) / 1024, 1) }.joined(separator: " / ") + " MiB"
  }
}
