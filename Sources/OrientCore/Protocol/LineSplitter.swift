/// What a client's bytes amount to so far.
package enum SplitLine: Equatable, Sendable {
  /// A complete line, without its LF (and without a CR before it).
  case line([UInt8])
  /// A line grew past the limit before its LF arrived.
  case tooLong
}

/// Cuts a byte stream into LF-terminated lines, refusing lines over a limit.
///
/// Holds at most `limit` bytes of an unfinished line, so a client can never make
/// the daemon buffer more than that.
package struct LineSplitter: Sendable {
  /// The longest accepted line, without its LF.
  package let limit: Int
  private var pending: [UInt8] = []

  /// Creates a splitter for lines of at most `limit` bytes.
  package init(limit: Int = 1024) { self.limit = limit }

  /// Adds bytes and returns the lines they complete; after `.tooLong` nothing more is returned.
  package mutating func append(_ bytes: UnsafeRawBufferPointer) -> [SplitLine] {
    var lines: [SplitLine] = []
    var start = 0
    for index in 0..<bytes.count where bytes[index] == 0x0A {
      if pending.count + (index - start) > limit + 1 { return lines + [.tooLong] }
      pending.append(contentsOf: bytes[start..<index])
      if pending.last == 0x0D { pending.removeLast() }
      if pending.count > limit { return lines + [.tooLong] }
      lines.append(.line(pending))
      pending.removeAll(keepingCapacity: false)
      start = index + 1
    }
    let rest = bytes.count - start
    if pending.count + rest > limit + 1 { return lines + [.tooLong] }
    pending.append(contentsOf: bytes[start..<bytes.count])
    return lines
  }
}
