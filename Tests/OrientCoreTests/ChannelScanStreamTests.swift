import Testing

@testable import OrientCore

/// Decodes `bytes` through `stream` in reads of the given sizes, in turn; returns the values
/// and the scans each read reported.
private func decode(_ stream: inout ChannelScanStream, _ bytes: [UInt8], sizes: [Int]) -> (
  values: [Int64], counts: [Int]
) {
  var values: [Int64] = []
  var counts: [Int] = []
  var offset = 0
  var turn = 0
  while offset < bytes.count {
    let size = min(sizes[turn % sizes.count], bytes.count - offset)
    turn += 1
    let count = bytes[offset..<(offset + size)].withUnsafeBytes { block in
      stream.decode(block) { values.append($0) }
    }
    counts.append(count)
    offset += size
  }
  return (values, counts)
}

/// The 32-bit little-endian bytes of `word`.
private func le32(_ word: UInt32) -> [UInt8] { (0..<4).map { UInt8(truncatingIfNeeded: word >> (8 * $0)) } }

/// The 32-bit big-endian bytes of `word`.
private func be32(_ word: UInt32) -> [UInt8] { le32(word).reversed() }

@Suite("Decoding one channel from reads that end anywhere")
struct ChannelScanStreamTests {
  @Test(
    "HID light, le:u32/32>>0, split anywhere, decodes as if read whole",
    arguments: [[1], [3], [4], [5], [7], [2, 9], [13, 1, 6], [100]])
  func hidLight(sizes: [Int]) throws {
    let format = try ScanFormat.parse("le:u32/32>>0")
    var stream = try ChannelScanStream(format: format)
    #expect(stream.offset == 0 && stream.scanSize == 4)
    let levels: [UInt32] = [0, 1, 350, 65_535, 65_536, 0x7FFF_FFFF, 0xFFFF_FFFF, 123_456]
    let (values, counts) = decode(&stream, levels.flatMap(le32), sizes: sizes)
    #expect(values == levels.map { Int64($0) })
    #expect(counts.reduce(0, +) == levels.count)
  }

  @Test("HID presence, 8 bits of 32: the upper bytes hold garbage and are masked off")
  func hidPresence() throws {
    var stream = try ChannelScanStream(format: try ScanFormat.parse("le:u8/32>>0"))
    #expect(stream.scanSize == 4)
    let words: [UInt32] = [0xDEAD_BE01, 0x1234_5600, 0xFFFF_FF01, 0x0000_00FF, 0xABCD_EF00]
    let (values, _) = decode(&stream, words.flatMap(le32), sizes: [3, 6])
    #expect(values == [1, 0, 1, 255, 0])
  }

  @Test("A 16-bit signed heading in 32 bits of storage, junk in the upper half, sign extended")
  func signedHeading() throws {
    var stream = try ChannelScanStream(format: try ScanFormat.parse("le:s16/32>>0"))
    let words: [UInt32] = [0xDEAD_0167, 0xBEEF_FF9C, 0x0000_8000, 0xFFFF_7FFF, 0x1234_0000]
    let (values, _) = decode(&stream, words.flatMap(le32), sizes: [5])
    #expect(values == [359, -100, -32_768, 32_767, 0])
  }

  @Test("Big-endian storage and a shift are honoured")
  func bigEndianShifted() throws {
    var stream = try ChannelScanStream(format: try ScanFormat.parse("be:u12/32>>4"))
    // 0xABC shifted by 4, with junk above bit 16 and in the low nibble.
    let (values, _) = decode(&stream, be32(0xFFFF_ABCF) + be32(0x0000_0010), sizes: [6])
    #expect(values == [0xABC, 1])
  }

  @Test("A channel at an offset in a larger scan: the light level beside a timestamp")
  func offsetInScan() throws {
    let format = try ScanFormat.parse("le:u32/32>>0")
    var stream = try ChannelScanStream(format: format, offset: 0, scanSize: 16)
    // Each scan: the level, 4 bytes of padding, an 8-byte timestamp.
    let scans: [[UInt8]] = [100, 200, 300].map { level in
      le32(level) + [0xEE, 0xEE, 0xEE, 0xEE] + le32(0x1111_1111) + le32(0x2222_2222)
    }
    let (values, counts) = decode(&stream, scans.flatMap { $0 }, sizes: [10, 11, 27])
    #expect(values == [100, 200, 300])
    #expect(counts == [0, 1, 2])
    var later = try ChannelScanStream(format: format, offset: 8, scanSize: 16)
    let (timestamps, _) = decode(&later, scans.flatMap { $0 }, sizes: [48])
    #expect(timestamps == [0x1111_1111, 0x1111_1111, 0x1111_1111])
  }

  @Test("A partial scan waits for the next read, however many reads it takes to complete")
  func partialAcrossReads() throws {
    var stream = try ChannelScanStream(format: try ScanFormat.parse("le:u32/32>>0"))
    let bytes = le32(0x0102_0304) + le32(7)
    let (values, counts) = decode(&stream, bytes, sizes: [1, 1, 1, 2, 3])
    #expect(values == [0x0102_0304, 7])
    #expect(counts == [0, 0, 0, 1, 1])
  }

  @Test("An empty read decodes nothing and keeps a partial scan")
  func emptyRead() throws {
    var stream = try ChannelScanStream(format: try ScanFormat.parse("le:u32/32>>0"))
    var values: [Int64] = []
    let bytes = le32(42)
    let first = bytes[0..<2].withUnsafeBytes { stream.decode($0) { values.append($0) } }
    let empty = [UInt8]().withUnsafeBytes { stream.decode($0) { values.append($0) } }
    let rest = bytes[2...].withUnsafeBytes { stream.decode($0) { values.append($0) } }
    #expect([first, empty, rest] == [0, 0, 1])
    #expect(values == [42])
  }

  @Test("A channel that does not fit its scan is refused")
  func doesNotFit() throws {
    let u32 = try ScanFormat.parse("le:u32/32>>0")
    #expect(throws: ValueError.self) { try ChannelScanStream(format: u32, offset: 13, scanSize: 16) }
    #expect(throws: ValueError.self) { try ChannelScanStream(format: u32, offset: -1, scanSize: 16) }
    #expect(throws: ValueError.self) { try ChannelScanStream(format: u32, offset: 0, scanSize: 3) }
    #expect(throws: ValueError.self) { try ChannelScanStream(format: u32, offset: 0, scanSize: 0) }
    #expect(throws: ValueError.self) { try ChannelScanStream(format: u32, offset: .max, scanSize: 16) }
    let fits = try ChannelScanStream(format: u32, offset: 12, scanSize: 16)
    #expect(fits.offset == 12)
  }

  @Test("A scan of the channel alone is laid out as the kernel does: its storage size")
  func ownLayout() throws {
    for (type, size) in [("le:u8/8>>0", 1), ("le:s16/16>>0", 2), ("le:u8/32>>0", 4), ("be:s64/64>>0", 8)] {
      let stream = try ChannelScanStream(format: try ScanFormat.parse(type))
      #expect(stream.scanSize == size, "\(type)")
      #expect(stream.offset == 0)
    }
  }
}
