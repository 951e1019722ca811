import OrientCore
import OrientSystem
import Synchronization

/// What libiio and libxml2 print on stderr, turned into log lines: escaped, because they print
/// what a remote server sent (escape sequences included), and limited in number, because a
/// server can make them print on every connection attempt.
///
/// The lines are taken from stdio's `stderr` (see `LibraryStandardError`) in the thread that
/// prints them, the sampling thread for libiio, and written to the log at once, which never
/// waits for stderr. The Swift runtime's fatal error message comes this way too.
enum LibraryMessages {
  /// At most this many lines every `windowSeconds`; the rest are counted.
  /// Enough for one failure's report (libxml2 prints three lines for each error it finds).
  static let linesPerWindow = 20
  static let window = Duration.seconds(60)
  /// A longer line is cut: a server's bytes should not fill the journal.
  static let lineLimit = 512

  private static let budget = Mutex(LineBudget(perWindow: linesPerWindow, window: window))

  /// Routes the libraries' stderr into the log. Call it once, before any thread starts; when
  /// it fails the libraries keep printing to stderr as they did.
  static func capture() {
    do {
      try LibraryStandardError.redirect { bytes in LibraryMessages.take(bytes) }
    } catch {
      Log.warning("cannot route libiio's messages through the log (\(error)); they go to stderr unescaped")
    }
  }

  private static func take(_ bytes: UnsafeRawBufferPointer) {
    for piece in bytes.split(separator: 0x0A) where !piece.isEmpty {
      var text = String(decoding: piece.prefix(lineLimit), as: UTF8.self).escapingControlCharacters
      if piece.count > lineLimit { text += " [\(piece.count - lineLimit) more bytes cut]" }
      let level = self.level(of: text)
      guard level >= Log.threshold else { continue }
      let admitted = budget.withLock { $0.admit(now: .now) }
      guard let suppressed = admitted else { continue }
      var lines: [String] = []
      if suppressed > 0 {
        lines.append(
          "library messages: \(suppressed) lines were suppressed "
            + "(at most \(linesPerWindow) are logged in \(window.wholeSeconds) s)")
      }
      lines.append("library message: \(text)")
      Log.write(level, lines: lines)
    }
  }

  /// How much a line matters to whoever reads the log.
  private static func level(of text: String) -> LogLevel {
    // libiio's note that a buffer cannot be mapped (a driver or emulated device without
    // mmap): capture works all the same, so it tells a user nothing.
    text.containsBytes("High-speed mode not enabled") ? .debug : .warning
  }
}
