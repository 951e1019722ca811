import Testing

@testable import OrientCore

/// Hands out a byte stream in reads of the given sizes, in turn, as a device whose reads end
/// inside scans does.
private struct SplittingReader {
  let bytes: [UInt8]
  let sizes: [Int]
  var offset = 0
  var turn = 0

  /// The next read, empty at the end.
  mutating func read() -> [UInt8] {
    let size = min(sizes[turn % sizes.count], bytes.count - offset)
    turn += 1
    defer { offset += size }
    return Array(bytes[offset..<(offset + size)])
  }
}

@Suite("Decoding scans from reads that end anywhere")
struct ScanStreamTests {
  /// Little-endian s16 x, y and z, 6 bytes a scan.
  func packed(_ scans: [[Int16]]) -> [UInt8] {
    scans.flatMap { $0.flatMap { [UInt8(truncatingIfNeeded: $0), UInt8(truncatingIfNeeded: $0 >> 8)] } }
  }

  func decoder() throws -> ScanDecoder {
    let s16 = try ScanFormat.parse("le:s16/16>>0")
    return try ScanDecoder(x: (0, s16), y: (1, s16), z: (2, s16))
  }

  @Test(
    "Scans split at odd byte counts decode as if read whole",
    arguments: [[1], [5], [7], [3, 5], [11, 1, 13], [5, 7], [6, 1, 5]])
  func oddSplits(sizes: [Int]) throws {
    let scans: [[Int16]] = (0..<20).map { [Int16($0 * 3), Int16(-256 + $0), Int16(0x1234 &* Int16($0 % 5))] }
    var reader = SplittingReader(bytes: packed(scans), sizes: sizes)
    var stream = ScanStream(decoder: try decoder())
    var decoded: [[Int16]] = []
    while true {
      let block = reader.read()
      if block.isEmpty { break }
      _ = block.withUnsafeBytes { bytes in
        stream.decode(bytes) { x, y, z in decoded.append([Int16(x), Int16(y), Int16(z)]) }
      }
    }
    #expect(decoded == scans)
    #expect(stream.pendingByteCount == 0)
  }

  @Test("A partial scan waits for the next read, and a reset forgets it")
  func pendingBytes() throws {
    var stream = ScanStream(decoder: try decoder())
    var decoded: [[Int64]] = []
    let bytes = packed([[256, 0, 0], [0, 256, 0]])
    _ = bytes[0..<8].withUnsafeBytes { stream.decode($0) { decoded.append([$0, $1, $2]) } }
    #expect(decoded == [[256, 0, 0]])
    #expect(stream.pendingByteCount == 2)
    _ = bytes[8...].withUnsafeBytes { stream.decode($0) { decoded.append([$0, $1, $2]) } }
    #expect(decoded == [[256, 0, 0], [0, 256, 0]])
    _ = bytes[0..<3].withUnsafeBytes { stream.decode($0) { decoded.append([$0, $1, $2]) } }
    stream.reset()
    #expect(stream.pendingByteCount == 0)
  }

  @Test("Scan types with numbers past any storage are refused, not added up")
  func hugeScanNumbers() {
    #expect(throws: ValueError.self) {
      try ScanFormat(isBigEndian: false, isSigned: true, bits: 8, storageBits: 16, shift: .max)
    }
    #expect(throws: ValueError.self) {
      try ScanFormat(isBigEndian: false, isSigned: true, bits: .max, storageBits: 16, shift: .max)
    }
    #expect(throws: ValueError.self) {
      try ScanDecoder(
        formats: Array(repeating: try ScanFormat.parse("le:s16/16>>0"), count: 3), offsets: [0, 2, .max],
        scanSize: 6)
    }
  }
}
