import Glibc

/// How the log reaches stderr without ever waiting for it.
///
/// A daemon's stderr may be a pipe or socket that nobody drains; a blocking write would then
/// stop the thread that logs, the event loop included. So a line that stderr cannot take at
/// once is dropped and counted, and the next line that gets through is preceded by the count.
///
/// O_NONBLOCK is never set on descriptor 2 itself: it shares its open file description with
/// the process that started orientd (a shell's pipe, a terminal), which would then see EAGAIN
/// on its own writes. Instead, by kind of stderr:
/// - a socket (the journal's stream): `send` with MSG_DONTWAIT, a flag of the call alone;
/// - a pipe, FIFO or terminal: a new open file description of the same file, opened through
///   /proc/self/fd/2 with O_NONBLOCK, which only orientd uses (hooks still inherit the
///   original, blocking descriptor 2);
/// - a regular file: plain writes, which never wait for a reader;
/// - a pipe or terminal that cannot be reopened (no /proc, or no permission): a write only when
///   poll says there is room, of at most PIPE_BUF bytes, which a pipe then takes without
///   waiting. Another writer of the same pipe could fill it in between (only orientd's own
///   writes are serialized), and a terminal stopped with ^S could still hold such a write.
struct LogOutput: ~Copyable {
  private enum Method {
    /// Blocking writes to descriptor 2, as before start-up (and for orientctl).
    case plain
    case socket
    case reopened(Int32)
    case polled
    /// Descriptor 2 is not open: writing to it could reach whatever file later takes number 2.
    case discard
  }

  private var method = Method.plain
  /// stderr, or another descriptor in tests.
  private let descriptor: Int32
  /// Lines dropped since the last line that got through.
  private var dropped = 0
  /// The unsent rest of a message stderr took only part of: at most one message.
  private var unsent: [UInt8] = []

  /// Writes in the calling thread and may wait (orientctl, and orientd before it serves).
  init() { descriptor = 2 }

  /// Chooses the way that never waits for `descriptor` (stderr), whose file is `status`;
  /// without `reopening`, a pipe or terminal is written as when it cannot be reopened.
  init(nonBlockingFor status: FileStatus?, descriptor: Int32 = 2, reopening: Bool = true) {
    self.descriptor = descriptor
    guard let status else {
      method = .discard
      return
    }
    switch status.kind {
    case .socket: method = .socket
    case .regular, .directory, .symbolicLink, .blockDevice: method = .plain
    case .fifo, .characterDevice:
      let flags = O_WRONLY | O_NONBLOCK | O_CLOEXEC | O_NOCTTY
      guard reopening else {
        method = .polled
        return
      }
      switch retryingInterrupts({ open("/proc/self/fd/\(descriptor)", flags) }) {
      case .success(let fd): method = .reopened(fd)
      // ENXIO: a pipe without a reader, where every write fails at once anyway; or no /proc.
      case .failure: method = .polled
      }
    }
  }

  deinit {
    if case .reopened(let fd) = method { _ = close(fd) }
  }

  /// Writes `text`, which holds `lines` lines, unless stderr would make the caller wait.
  ///
  /// `note` builds the line that reports how many lines were dropped before it.
  mutating func write(_ text: String, lines: Int, note: (Int) -> String) {
    switch method {
    case .plain:
      // A log line that cannot be written has nowhere else to be reported.
      try? writeAllToDescriptor(descriptor, text)
      return
    case .discard: return
    case .socket, .reopened, .polled: break
    }
    if !unsent.isEmpty {
      let sent = attempt(unsent)
      unsent.removeFirst(sent)
      guard unsent.isEmpty else {
        dropped += lines
        return
      }
    }
    var bytes = Array(text.utf8)
    if dropped > 0 { bytes = Array(note(dropped).utf8) + bytes }
    let sent = attempt(bytes)
    guard sent > 0 else {
      dropped += lines
      return
    }
    dropped = 0
    // The rest of a message begun goes first next time, so lines are never cut in two.
    if sent < bytes.count { unsent = Array(bytes[sent...]) }
  }

  /// Writes what stderr takes of `bytes` at once; 0 when it takes nothing or fails.
  private func attempt(_ bytes: [UInt8]) -> Int {
    let result = bytes.withUnsafeBytes { buffer -> Result<Int, Errno> in
      switch method {
      case .plain, .discard:
        return .success(0)
      case .socket:
        return retryingInterrupts {
          send(descriptor, buffer.baseAddress, buffer.count, Int32(MSG_DONTWAIT | MSG_NOSIGNAL))
        }
      case .reopened(let fd):
        return retryingInterrupts { Glibc.write(fd, buffer.baseAddress, buffer.count) }
      case .polled:
        var entry = pollfd(fd: descriptor, events: Int16(POLLOUT), revents: 0)
        guard case .success(1) = retryingInterrupts({ poll(&entry, 1, 0) }),
          Int32(entry.revents) & Int32(POLLOUT) != 0
        else { return .success(0) }
        return retryingInterrupts {
          Glibc.write(descriptor, buffer.baseAddress, min(buffer.count, Int(PIPE_BUF)))
        }
      }
    }
    if case .success(let count) = result { return count }
    return 0
  }
}
