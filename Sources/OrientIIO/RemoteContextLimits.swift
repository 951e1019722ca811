import OrientCore
import OrientSystem

/// What a remote IIO context may cost orientd, and the checks that hold it to that.
///
/// libiio 0.24 asks iiod for the context with `PRINT`, reads the length the server
/// announces, allocates that much (up to 2 GiB) and reads it all before parsing: a hostile
/// or broken server sets how much memory orientd takes. So before libiio connects, orientd
/// asks the same server the same question and reads only the announced length; a context
/// over `maximumXMLBytes` is refused without libiio ever seeing it. Once libiio has built a
/// context, its device count and size are checked again: a context over either limit is
/// destroyed and the freed memory is given back to the kernel. That also refuses a server
/// that announced a small context to the check and a large one to libiio, but only after
/// libiio has read it: what such a server costs is bounded by libiio alone, once per attempt.
enum RemoteContextLimits {
  /// The largest context XML accepted: 1 MiB.
  ///
  /// Real contexts are far smaller: across 94 contexts captured from Analog Devices
  /// evaluation boards (pyadi-iio's test emulation set) the median is 7.5 KB and the largest
  /// 245 KB (AD9084, 21 devices); a laptop's HID sensor hub is tens of KB. 1 MiB leaves four
  /// times the largest, while what libiio and libxml2 build from it stays within tens of MB.
  static let maximumXMLBytes = 1 << 20

  /// The most devices a context may have: 256, nine times the largest real context's 28.
  static let maximumDevices = 256

  /// How long the check may take to connect, and then to get the length: libiio's own
  /// default timeout.
  static let timeout = Duration.seconds(5)

  /// The most bytes read before the length: libiio skips empty lines before it, without end.
  static let maximumReplyBytes = 16 * IIODProtocol.maximumLineBytes

  /// Asks the iiod named by `uri` (`ip:...`) how large its context is, as libiio is about to,
  /// and refuses one over the limit.
  static func checkAnnouncedSize(uri: String) throws(IIOError) {
    guard uri.hasPrefix("ip:") else { return }
    guard let address = IIODProtocol.address(networkURI: String(uri.dropFirst(3))) else {
      throw .contextRefused(
        uri: uri,
        reason: "no host to check the context's size with (a server found by DNS-SD cannot be "
          + "checked); give --uri ip:HOST")
    }
    let answer: PrintAnswer
    do throws(SystemError) {
      let connection = try InternetSocket.connect(
        host: address.host, port: address.port, timeout: timeout)
      try connection.sendAll(IIODProtocol.printCommand)
      answer = try readLength(from: connection)
    } catch {
      throw .contextUnavailable(
        SystemError("cannot open IIO context \(uri): \(error.operation)", code: error.code), hint: nil)
    }
    let length: Int32
    switch answer {
    case .length(let value): length = value
    case .refused(let reason): throw .contextRefused(uri: uri, reason: reason)
    }
    if length < 0 {
      // The server's errno for PRINT: libiio would fail the same way, having allocated nothing.
      let code = length == .min ? Errno.ioError : Errno(rawValue: -length)
      throw .contextUnavailable(
        SystemError("cannot open IIO context \(uri): the server refuses PRINT", code: code), hint: nil)
    }
    if Int(length) > maximumXMLBytes {
      throw .contextRefused(
        uri: uri,
        reason: "the server announces \(length) bytes of context XML, more than the limit of "
          + "\(maximumXMLBytes) bytes (1 MiB)")
    }
  }

  /// What the server answered to PRINT: the number libiio would take, or why it is no answer.
  private enum PrintAnswer {
    case length(Int32)
    case refused(String)
  }

  /// Reads the reply to PRINT up to its first line with something other than a newline,
  /// and the number libiio would take from it. The connection is closed before the XML.
  private static func readLength(from connection: borrowing FileDescriptor) throws(SystemError) -> PrintAnswer
  {
    let deadline = MonotonicInstant.now + timeout
    let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: 1, alignment: 1)
    defer { buffer.deallocate() }
    var line: [UInt8] = []
    var total = 0
    while true {
      let left = deadline - .now
      guard left > .zero else {
        throw SystemError("no answer to PRINT within \(timeout.wholeMilliseconds) ms", code: .timedOut)
      }
      let ready = try Readiness.wait([(connection.rawValue, .readable)], timeout: left)
      guard !ready[0].isEmpty else { continue }
      // One byte at a time: the line is short, and nothing of the XML after it is read.
      guard let count = try connection.receive(into: buffer) else { continue }
      guard count > 0 else {
        throw SystemError("the server closed the connection before answering PRINT", code: .connectionReset)
      }
      total += 1
      let byte = buffer[0]
      if byte == UInt8(ascii: "\n") {
        if !line.isEmpty {
          guard let value = IIODProtocol.integer(inLine: line) else {
            return .refused(
              "the server answers PRINT with '\(String(decoding: line, as: UTF8.self).escapingControlCharacters)', not a length"
            )
          }
          return .length(value)
        }
        line.removeAll(keepingCapacity: true)
        guard total <= maximumReplyBytes else {
          return .refused("the server sends only empty lines after PRINT")
        }
        continue
      }
      line.append(byte)
      guard line.count < IIODProtocol.maximumLineBytes else {
        return .refused("the server's answer to PRINT is longer than \(IIODProtocol.maximumLineBytes) bytes")
      }
    }
  }
}
