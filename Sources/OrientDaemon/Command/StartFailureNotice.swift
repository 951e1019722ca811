import OrientCore
import OrientSystem

/// Tells the clients waiting on systemd's socket that orientd cannot start, before it exits.
///
/// systemd holds `orientd.socket` and starts orientd for the first client. When orientd exits
/// on a config mistake without taking that client, the connection stays in the socket's queue,
/// systemd starts orientd again for it at once, and after five tries in ten seconds gives up
/// on the service and the socket: the client is cut off without a word and the user must
/// `reset-failed` before the fixed file can start. Taking the waiting connections and
/// answering each with one line ends that loop and tells the user where to look. The line
/// does not quote the mistake: any local user may connect, and the file may be private.
enum StartFailureNotice {
  /// The most connections answered: a client connecting faster than this is on its own.
  static let limit = 64

  /// The line each waiting client reads.
  static let line = ProtocolRendering.line(
    for: .error(
      ProtocolError(
        .badConfig,
        "orientd cannot start: its configuration has a mistake; 'systemctl status orientd' says which")),
    format: .text)

  /// Answers and closes the connections waiting on the socket systemd passed, if it passed one.
  ///
  /// Each step is a courtesy on the way out: orientd exits with its own error whatever
  /// happens here, and a client not answered is no worse off than before.
  static func answerWaitingClients() {
    guard let listener = try? Systemd.activatedListener() else { return }
    for _ in 0..<limit {
      // Non-blocking, both: a client that does not read loses the line, not orientd's exit.
      guard let client = try? listener.accept() else { return }
      _ = try? client.send(Array(line.utf8)[...])
    }
  }
}
