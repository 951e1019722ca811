import Glibc
import Synchronization

/// Log severities; each message is one line on stderr, where journald picks it up.
package enum LogLevel: Int, Comparable, Sendable {
  case debug = 7
  case info = 6
  case warning = 4
  case error = 3

  package static func < (lhs: LogLevel, rhs: LogLevel) -> Bool { lhs.rawValue > rhs.rawValue }

  var label: String {
    switch self {
    case .debug: return "debug"
    case .info: return "info"
    case .warning: return "warning"
    case .error: return "error"
    }
  }
}

/// Writes log lines to stderr with write(2), so a line is never split or held in a buffer.
///
/// Both of orientd's threads log; their writes are serialized. Once the daemon calls
/// `writeWithoutWaiting()`, a line stderr cannot take at once is dropped and counted rather
/// than waited for (see `LogOutput`).
package enum Log {
  private static let thresholdStorage = Atomic<Int>(LogLevel.info.rawValue)
  private static let output = Mutex(LogOutput())
  /// The thread inside `output`'s lock (pthread_self), or 0.
  private static let writer = Atomic<UInt>(0)

  /// The least severe level written; SIGHUP may change it while the sensor thread logs.
  package static var threshold: LogLevel {
    get { LogLevel(rawValue: thresholdStorage.load(ordering: .relaxed)) ?? .info }
    set { thresholdStorage.store(newValue.rawValue, ordering: .relaxed) }
  }

  /// Whether `debug` messages are written.
  package static var isVerbose: Bool { threshold == .debug }

  /// The program name that starts each line on a terminal. Set once at start-up, before any thread.
  nonisolated(unsafe) package static var program = "orientd"

  /// Whether stderr goes to the journal, which reads `<N>` priority prefixes. Set once at start-up.
  nonisolated(unsafe) package static var toJournal = false

  /// Writes `message` at `level`: `orientd: warning: ...` on a terminal, `<4>...` to the journal.
  package static func write(_ level: LogLevel, _ message: @autoclosure () -> String) {
    guard level >= threshold else { return }
    emit(line(level, message()), lines: 1)
  }

  /// Writes several messages at `level` with one write(2), each on its own line.
  package static func write(_ level: LogLevel, lines messages: [String]) {
    guard level >= threshold, !messages.isEmpty else { return }
    var text = ""
    for message in messages { text += line(level, message) }
    emit(text, lines: messages.count)
  }

  /// From now on, never waits for stderr: a line it cannot take at once is dropped, and the
  /// next line that gets through says how many were. Call it once, at start-up.
  package static func writeWithoutWaiting() {
    // A stderr that cannot be examined (closed) is discarded: nowhere to report it either.
    let status = try? StandardStream.error.status()
    output.withLock { $0 = LogOutput(nonBlockingFor: status) }
  }

  private static func emit(_ text: String, lines: Int) {
    let thread = UInt(pthread_self())
    guard writer.load(ordering: .acquiring) != thread else {
      // Called from within a write on this thread: the Swift runtime reporting a crash there,
      // through stdio's stderr (see LibraryStandardError). Waiting for the lock would hang
      // the crash; the process is ending, so write straight out (a failure has nowhere to go).
      try? StandardStream.error.write(text)
      return
    }
    output.withLock { stream in
      writer.store(thread, ordering: .releasing)
      defer { writer.store(0, ordering: .releasing) }
      stream.write(text, lines: lines) { dropped in
        line(
          .warning,
          "\(dropped) log line\(dropped == 1 ? " was" : "s were") dropped: stderr was not being read")
      }
    }
  }

  private static func line(_ level: LogLevel, _ message: String) -> String {
    toJournal ? "<\(level.rawValue)>\(level.label): \(message)\n" : "\(program): \(level.label): \(message)\n"
  }

  /// Detects whether stderr is the journal stream systemd named in `$JOURNAL_STREAM`.
  package static func detectJournal() {
    guard let value = Environment.value("JOURNAL_STREAM") else { return }
    let parts = value.split(separator: ":")
    // A stderr that cannot be examined is not the journal's stream: the probe's answer.
    guard parts.count == 2, let status = try? StandardStream.error.status() else { return }
    toJournal = String(status.device) == parts[0] && String(status.inode) == parts[1]
  }

  package static func debug(_ message: @autoclosure () -> String) { write(.debug, message()) }
  package static func info(_ message: @autoclosure () -> String) { write(.info, message()) }
  package static func warning(_ message: @autoclosure () -> String) { write(.warning, message()) }
  package static func error(_ message: @autoclosure () -> String) { write(.error, message()) }
}
