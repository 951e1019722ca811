/// Decodes scans from a stream of blocks that may end anywhere, as buffer reads do.
///
/// A read may end inside a scan. Dropping those bytes would shift every later scan by
/// them, so the partial scan is kept and completed by the start of the next block.
public struct ScanStream: Sendable {
  /// The decoder for one scan.
  public let decoder: ScanDecoder
  /// The bytes of a scan that a block ended inside, fewer than a scan.
  private var partial: [UInt8] = []

  /// A stream decoded with `decoder`.
  public init(decoder: ScanDecoder) {
    self.decoder = decoder
    partial.reserveCapacity(decoder.scanSize)
  }

  /// How many bytes of an incomplete scan are waiting for the next block.
  var pendingByteCount: Int { partial.count }

  /// Forgets a partial scan, as when the buffer is reopened.
  public mutating func reset() { partial.removeAll(keepingCapacity: true) }

  /// Calls `body` with (x, y, z) for every scan the bytes kept from earlier blocks and
  /// `block` complete; keeps the bytes of an incomplete last scan. Returns the scans decoded.
  @discardableResult
  public mutating func decode(_ block: UnsafeRawBufferPointer, _ body: (Int64, Int64, Int64) -> Void) -> Int {
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
