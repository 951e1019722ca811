import OrientCore
import OrientSystem

/// A blocking socket client that reads whole lines.
///
/// `try?` here: a failed send or read shows as a missing line, which the measurement reports.
final class BenchClient {
  let socket: FileDescriptor
  private var splitter = LineSplitter(limit: 65536)

  init(path: String) throws(SystemError) {
    socket = try UnixSocket.connect(path: path)
  }

  func send(_ text: String) { try? socket.sendAll(text) }

  /// Reads what is available (blocking for the first bytes) and returns the complete lines.
  func readAvailable() -> [String] {
    var chunk = [UInt8](repeating: 0, count: 8192)
    guard let count = try? chunk.withUnsafeMutableBytes({ try socket.receive(into: $0) }), count > 0 else {
      return []
    }
    return chunk.withUnsafeBytes { splitter.append(UnsafeRawBufferPointer(rebasing: $0[0..<count])) }
      .compactMap {
        if case .line(let bytes) = $0 { return String(decoding: bytes, as: UTF8.self) }
        return nil
      }
  }

  /// The lines of the snapshot a new client gets: sensor, device, orientation, lock,
  /// allowed and mode.
  static let greetingLines = 6

  /// Reads the snapshot a new client gets; false if the connection ended first.
  @discardableResult
  func readGreeting() -> Bool { readLines(Self.greetingLines).count >= Self.greetingLines }

  /// Reads until at least `count` lines have arrived (all of a chunk's complete lines are
  /// kept), or the connection ends.
  func readLines(_ count: Int) -> [String] {
    var lines: [String] = []
    while lines.count < count {
      let more = readAvailable()
      if more.isEmpty { break }
      lines += more
    }
    return lines
  }
}
