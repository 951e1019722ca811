/// Lets at most a set number of log lines through per period and says how many it held
/// back, so that what clients can make happen (a flood of control commands) cannot flood
/// the journal.
public struct LineBudget: Sendable {
  private let limit: Int
  private let periodNanoseconds: UInt64
  private var periodStart: UInt64 = 0
  private var written = 0
  private var heldBack = 0

  /// Allows `lines` lines per `seconds`.
  public init(lines: Int, perSeconds seconds: UInt64) {
    limit = lines
    periodNanoseconds = seconds * 1_000_000_000
  }

  /// Writes `messages` with one write(2) if the period's budget allows them all, else counts
  /// them; the first write of a later period first says how many were held back.
  public mutating func write(
    _ level: LogLevel, lines messages: [String], now: UInt64 = Clock.monotonicNanoseconds
  ) {
    guard !messages.isEmpty else { return }
    if now - periodStart >= periodNanoseconds {
      periodStart = now
      written = 0
    }
    guard written + messages.count <= limit else {
      heldBack += messages.count
      return
    }
    var lines = messages
    if heldBack > 0 {
      lines.insert("(\(heldBack) more lines were not logged: too many in a short time)", at: 0)
      heldBack = 0
    }
    written += lines.count
    Log.write(level, lines: lines)
  }
}
