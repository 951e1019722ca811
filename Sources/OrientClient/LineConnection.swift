import OrientCore
import OrientSystem

/// A blocking connection to orientd that reads and writes whole lines.
final class LineConnection {
  private let socket: FileDescriptor
  /// orientd's longest line is far shorter; a longer one means the peer is not orientd.
  private var splitter = LineSplitter(limit: 65536)
  private var lines: [String] = []
  private var nextLine = 0
  private var closed = false
  /// How long a reply may take, counted from each `send`; nil waits for ever.
  var replyTimeout: Duration?
  /// When the reply to the last line sent is due.
  private var deadline: MonotonicInstant?
  /// Whether a reply did not come in time; the connection is then given up.
  private(set) var timedOut = false

  /// Connects to the socket at `path`.
  init(path: String) throws(SystemError) {
    socket = try UnixSocket.connect(path: path)
  }

  /// Sends one line; false when the daemon has gone.
  func send(_ line: String) -> Bool {
    if let replyTimeout { deadline = .now + replyTimeout }
    // Any failure to send means the daemon is gone to the caller, which says so.
    return (try? socket.sendAll(line + "\n")) != nil
  }

  /// Puts `line` back, to be read next.
  func pushBack(_ line: String) {
    lines.insert(line, at: nextLine)
  }

  /// The descriptor, for waiting on it together with others.
  var fileDescriptor: Int32 { socket.rawValue }

  /// The next line if one arrives before `deadline`; `.closed` when the daemon went away.
  func readLine(until deadline: MonotonicInstant) -> TimedLine {
    readLine(timeout: max(.zero, deadline - .now))
  }

  /// Whether a whole line is already buffered.
  var hasBufferedLine: Bool { nextLine < lines.count }

  /// The next line if one arrives within `timeout` (nil: no limit); `.closed` when the daemon
  /// went away.
  func readLine(timeout: Duration?) -> TimedLine {
    if !hasBufferedLine {
      // A failed poll goes on to the read, whose failure closes the connection.
      let ready = try? Readiness.wait([(socket.rawValue, .readable)], timeout: timeout)
      if ready?.first?.isEmpty == true { return .timedOut }
    }
    guard let line = readLine() else { return .closed }
    return .line(line)
  }

  /// The next line without its newline, or nil when the daemon closed the connection.
  ///
  /// With `watchingOutput`, it also returns nil as soon as stdout's reader goes away,
  /// so `orientctl monitor | head -1` ends without waiting for another event.
  func readLine(watchingOutput: Bool = false) -> String? {
    while !hasBufferedLine {
      guard !closed else { return nil }
      if watchingOutput {
        guard waitForInputWhileOutputIsOpen() else { return nil }
      } else if let deadline, !waitForInput(until: deadline) {
        // A peer that accepts but never answers must not hold orientctl for ever.
        timedOut = true
        closed = true
        return nil
      }
      receive()
    }
    defer {
      nextLine += 1
      if nextLine == lines.count {
        lines.removeAll(keepingCapacity: true)
        nextLine = 0
      }
    }
    return lines[nextLine]
  }

  /// Reads what the socket has and splits it into lines; marks the end of the connection.
  private func receive() {
    var chunk = [UInt8](repeating: 0, count: 4096)
    // A failed read ends the connection as its end does: either way orientd is gone.
    guard let count = try? chunk.withUnsafeMutableBytes({ try socket.receive(into: $0) }), count > 0
    else {
      closed = true
      return
    }
    let pieces = chunk.withUnsafeBytes { splitter.append(UnsafeRawBufferPointer(rebasing: $0[0..<count])) }
    for piece in pieces {
      switch piece {
      case .line(let bytes): lines.append(String(decoding: bytes, as: UTF8.self))
      case .tooLong: closed = true
      }
    }
  }

  /// Waits until the socket has input; false when `deadline` passes first.
  private func waitForInput(until deadline: MonotonicInstant) -> Bool {
    let left = deadline - .now
    guard left > .zero else { return false }
    // A failed poll is no input: the caller reports the daemon as not answering.
    let ready = try? Readiness.wait([(socket.rawValue, .readable)], timeout: left)
    return ready?.first?.isEmpty == false
  }

  /// Waits until the socket has input; false when stdout's reader has gone first.
  private func waitForInputWhileOutputIsOpen() -> Bool {
    // A failed poll ends the wait as a gone reader does: there is nothing left to wait on.
    guard
      let ready = try? Readiness.wait(
        [(socket.rawValue, .readable), (StandardStream.output.descriptor, [])], timeout: nil)
    else { return false }
    return ready[1].isDisjoint(with: [.error, .hangUp])
  }
}

/// The outcome of waiting for a line.
enum TimedLine: Equatable {
  case line(String)
  case timedOut
  case closed
}
