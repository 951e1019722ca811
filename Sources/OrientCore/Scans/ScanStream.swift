/// Decodes scans from a stream of blocks that may end anywhere, as buffer reads do.
///
/// A read may end inside a scan. Dropping those bytes would shift every later scan by
/// them, so the partial scan is kept and completed by the start of the next block.
package struct ScanStream: Sendable {
  /// The decoder for one scan.
  package let decoder: ScanDecoder
  /// The bytes of a scan that a block ended inside, fewer than a scan.
  private var partial: [UInt8] = []

  /// A stream decoded with `decoder`.
  package init(decoder: ScanDecoder) {
    self.decoder = decoder
    partial.reserveCapacity(decoder.scanSize)
  }

  /// How many bytes of an incomplete scan are waiting for the next block.
  var pendingByteCount: Int { partial.count }

  /// Forgets a partial scan, as when the buffer is reopened.
  package mutating func reset() { partial.removeAll(keepingCapacity: true) }

  /// Calls `body` with (x, y, z) for every scan the bytes kept from earlier blocks and
  /// `block` complete; keeps the bytes of an incomplete last scan. Returns the scans decoded.
  @discardableResult
  package mutating func decode(_ block: UnsafeRawBufferPointer, _ body: (Int64, Int64, Int64) -> Void) -> Int {
    var scans = 0
    var rest = block
    if !partial.isEmpty {
      let needed = decoder.scanSize - partial.count
      let taken = min(needed, rest.count)
      partial.append(contentsOf: rest[rest.startIndex..<(rest.startIndex + taken)])
      rest = UnsafeRawBufferPointer(rebasing: rest[(rest.startIndex + taken)...])
      guard partial.count == decoder.scanSize else { return 0 }
      partial.withUnsafeBytes { scan in
        _ = decoder.decodeScans(scan) { x, y, z in
          scans += 1
          body(x, y, z)
        }
      }
      partial.removeAll(keepingCapacity: true)
    }
    let leftOver = decoder.decodeScans(rest) { x, y, z in
      scans += 1
      body(x, y, z)
    }
    partial.append(contentsOf: rest[(rest.endIndex - leftOver)...])
    return scans
  }
}

/// Decodes one channel from a stream of scans that may end anywhere, as `ScanStream` does for
/// x, y and z: the value sensors (light, proximity, heading) carry one channel each.
package struct ChannelScanStream: Sendable {
  package let format: ScanFormat
  /// Where the channel sits in a scan, and the scan's size.
  package let offset: Int
  package let scanSize: Int
  private var partial: [UInt8] = []

  /// A stream of scans of `scanSize` bytes whose channel at `offset` is `format`.
  package init(format: ScanFormat, offset: Int, scanSize: Int) throws(ValueError) {
    guard scanSize >= 1, offset >= 0, offset <= scanSize - format.storageBits / 8 else {
      throw ValueError("a channel at byte \(offset) does not fit a scan of \(scanSize) bytes")
    }
    self.format = format
    self.offset = offset
    self.scanSize = scanSize
  }

  /// A stream of scans that carry only this channel, laid out as the kernel does.
  package init(format: ScanFormat) throws(ValueError) {
    let layout = ScanLayout(channels: [(0, format)])
    try self.init(format: format, offset: layout.offsets[0], scanSize: layout.scanSize)
  }

  /// Calls `body` with the channel's value of every scan the bytes kept from earlier blocks
  /// and `block` complete; keeps an incomplete last scan. Returns the scans decoded.
  @discardableResult
  package mutating func decode(_ block: UnsafeRawBufferPointer, _ body: (Int64) -> Void) -> Int {
    var scans = 0
    var start = block.startIndex
    if !partial.isEmpty {
      let taken = min(scanSize - partial.count, block.count)
      partial.append(contentsOf: block[start..<(start + taken)])
      start += taken
      guard partial.count == scanSize else { return 0 }
      partial.withUnsafeBytes { body(format.decode(UnsafeRawBufferPointer(rebasing: $0[offset...]))) }
      scans += 1
      partial.removeAll(keepingCapacity: true)
    }
    while start + scanSize <= block.endIndex {
      body(format.decode(UnsafeRawBufferPointer(rebasing: block[(start + offset)..<(start + scanSize)])))
      scans += 1
      start += scanSize
    }
    partial.append(contentsOf: block[start...])
    return scans
  }
}
