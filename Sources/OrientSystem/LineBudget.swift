/// Lets at most a set number of log lines through per window of time and counts the others,
/// so that what others can make happen (a flood of control commands, a remote server that
/// makes libiio print on every attempt) cannot flood the journal.
package struct LineBudget: Sendable {
  /// The lines allowed in one window.
  package let perWindow: Int
  private let window: Duration
  private var windowStart: MonotonicInstant?
  private var used = 0
  private var suppressed = 0

  /// Allows `perWindow` lines in each `window`.
  package init(perWindow: Int, window: Duration) {
    self.perWindow = perWindow
    self.window = window
  }

  /// Whether `count` lines may be written now: nil when they must be suppressed (they are
  /// counted), else how many lines were suppressed before them, for a note.
  package mutating func admit(_ count: Int = 1, now: MonotonicInstant = .now) -> Int? {
    if let start = windowStart, now - start < window {
      guard used + count <= perWindow else {
        suppressed += count
        return nil
      }
      used += count
      return 0
    }
    windowStart = now
    used = count
    defer { suppressed = 0 }
    return suppressed
  }

  /// Writes `messages` with one write(2) if the budget allows them all, after a note of how
  /// many lines were held back before them; else counts them.
  package mutating func write(
    _ level: LogLevel, lines messages: [String], now: MonotonicInstant = .now
  ) {
    guard !messages.isEmpty, let suppressed = admit(messages.count, now: now) else { return }
    let note =
      suppressed > 0
      ? ["(\(suppressed) more lines were not logged: at most \(perWindow) in a short time)"] : []
    Log.write(level, lines: note + messages)
  }
}
