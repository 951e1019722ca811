import Glibc
import OrientSystem

/// A blocking connection to orientd that reads and writes whole lines.
final class LineConnection {
  private let descriptor: Int32
  private var buffer: [UInt8] = []
  private var start = 0

  /// Connects to the socket at `path`.
  init(path: String) throws(SystemError) {
    descriptor = try UnixSocket.connect(path: path)
  }

  deinit { close(descriptor) }

  /// Waits until the socket has input; false when stdout's reader has gone first.
  private func waitForInput() -> Bool {
    var watched = [
      pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0),
      pollfd(fd: 1, events: 0, revents: 0),
    ]
    while true {
      let ready = poll(&watched, 2, -1)
      if ready < 0, errno == EINTR { continue }
      guard ready > 0 else { return false }
      if watched[1].revents & Int16(POLLERR | POLLHUP) != 0 { return false }
      return true
    }
  }

  /// Sends one line; false when the daemon has gone.
  func send(_ line: String) -> Bool {
    var text = line + "\n"
    return text.withUTF8 { bytes in
      var offset = 0
      while offset < bytes.count {
        let written = Glibc.send(
          descriptor, bytes.baseAddress! + offset, bytes.count - offset, Int32(MSG_NOSIGNAL))
        if written < 0 {
          if errno == EINTR { continue }
          return false
        }
        offset += written
      }
      return true
    }
  }

  /// The descriptor, for waiting on it together with others.
  var fileDescriptor: Int32 { descriptor }

  /// Whether a whole line is already buffered.
  var hasBufferedLine: Bool { buffer[start...].contains(0x0A) }

  /// The next line if one arrives within `milliseconds`; `.closed` when the daemon went away.
  func readLine(timeoutMilliseconds milliseconds: Int32) -> TimedLine {
    if !hasBufferedLine {
      var entry = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
      let ready = poll(&entry, 1, milliseconds)
      if ready == 0 { return .timedOut }
    }
    guard let line = readLine() else { return .closed }
    return .line(line)
  }

  /// The next line without its newline, or nil when the daemon closed the connection.
  ///
  /// With `watchingOutput`, it also returns nil as soon as stdout's reader goes away,
  /// so `orientctl monitor | head -1` ends without waiting for another event.
  func readLine(watchingOutput: Bool = false) -> String? {
    while true {
      if let newline = buffer[start...].firstIndex(of: 0x0A) {
        let line = String(decoding: buffer[start..<newline], as: UTF8.self)
        start = newline + 1
        if start > 4096 {
          buffer.removeFirst(start)
          start = 0
        }
        return line
      }
      if watchingOutput, !waitForInput() { return nil }
      var chunk = [UInt8](repeating: 0, count: 4096)
      let count = chunk.withUnsafeMutableBytes { recv(descriptor, $0.baseAddress, $0.count, 0) }
      if count < 0, errno == EINTR { continue }
      guard count > 0 else { return nil }
      buffer += chunk[0..<count]
    }
  }
}

/// The outcome of waiting for a line.
enum TimedLine: Equatable {
  case line(String)
  case timedOut
  case closed
}
