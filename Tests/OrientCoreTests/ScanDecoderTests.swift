import Testing

@testable import OrientCore

@Suite("Decoding IIO buffer scans")
struct ScanDecoderTests {
  func decode(_ format: ScanFormat, _ bytes: [UInt8]) -> Int64 {
    bytes.withUnsafeBytes { format.decode($0) }
  }

  @Test("Scan types parse from their sysfs form")
  func parsesTypes() throws {
    let plain = try ScanFormat.parse("le:s16/16>>0\n")
    #expect(
      plain == (try ScanFormat(isBigEndian: false, isSigned: true, bits: 16, storageBits: 16, shift: 0)))
    let shifted = try ScanFormat.parse("be:u12/16>>4")
    #expect(shifted.isBigEndian && !shifted.isSigned && shifted.bits == 12 && shifted.shift == 4)
    let repeated = try ScanFormat.parse("le:S32/32X3>>0")
    #expect(repeated.repeatCount == 3 && repeated.byteCount == 12 && repeated.isSigned)
  }

  @Test(
    "Malformed scan types are rejected",
    arguments: [
      "", "xe:s16/16>>0", "le:q16/16>>0", "le:s16/16", "le:s16>>0", "le:s16/12>>0", "le:s12/16>>8",
      "le:s0/16>>0", "le:s16/16X0>>0", "le:s16/abc>>0", "le:s16/16>>>0",
    ])
  func rejectsTypes(text: String) {
    #expect(throws: ValueError.self) { try ScanFormat.parse(text) }
  }

  @Test("Sign, endianness, bits and shift are honoured")
  func decodesValues() throws {
    #expect(decode(try .parse("le:s16/16>>0"), [0x00, 0xFF]) == -256)
    #expect(decode(try .parse("be:s16/16>>0"), [0xFF, 0x00]) == -256)
    #expect(decode(try .parse("le:u16/16>>0"), [0x00, 0xFF]) == 65280)
    // 12 significant bits stored high in 16: 0x800 is the most negative 12-bit value.
    #expect(decode(try .parse("le:s12/16>>4"), [0x05, 0x80]) == -2048)
    #expect(decode(try .parse("le:u12/16>>4"), [0x05, 0x80]) == 2048)
    #expect(decode(try .parse("le:s24/32>>0"), [0xFF, 0xFF, 0xFF, 0x7F]) == -1)
    #expect(decode(try .parse("be:s32/32>>0"), [0x00, 0x00, 0x01, 0x00]) == 256)
    #expect(decode(try .parse("le:s8/8>>0"), [0x80]) == -128)
    #expect(decode(try .parse("le:s64/64>>0"), [UInt8](repeating: 0xFF, count: 8)) == -1)
  }

  @Test("The layout aligns each channel to its size and pads the scan to the largest")
  func layout() throws {
    let s16 = try ScanFormat.parse("le:s16/16>>0")
    let s32 = try ScanFormat.parse("le:s32/32>>0")
    let s64 = try ScanFormat.parse("le:s64/64>>0")
    #expect(ScanLayout(channels: [(0, s16), (1, s16), (2, s16)]).offsets == [0, 2, 4])
    let mixed = ScanLayout(channels: [(0, s16), (1, s32), (2, s16)])
    #expect(mixed.offsets == [0, 4, 8])
    #expect(mixed.scanSize == 12)
    let withTimestamp = ScanLayout(channels: [(0, s16), (1, s16), (2, s16), (3, s64)])
    #expect(withTimestamp.offsets == [0, 2, 4, 8])
    #expect(withTimestamp.scanSize == 16)
    let outOfOrder = ScanLayout(channels: [(2, s16), (0, s16), (1, s16)])
    #expect(outOfOrder.offsets == [4, 0, 2])
  }

  @Test("Every whole scan of a batch is decoded, a partial one is left over")
  func batches() throws {
    let s16 = try ScanFormat.parse("le:s16/16>>0")
    let decoder = try ScanDecoder(x: (0, s16), y: (1, s16), z: (2, s16))
    let bytes: [UInt8] = [0x00, 0x01, 0, 0, 0, 0, 0, 0, 0x00, 0x01, 0, 0, 0x00, 0xFF, 0, 0, 0, 0, 0x07]
    var scans: [[Int64]] = []
    let leftOver = bytes.withUnsafeBytes { decoder.decodeScans($0) { scans.append([$0, $1, $2]) } }
    #expect(scans == [[256, 0, 0], [0, 256, 0], [-256, 0, 0]])
    #expect(leftOver == 1)
  }

  @Test("A decoder whose channels fall outside the scan is refused")
  func badOffsets() throws {
    let s32 = try ScanFormat.parse("le:s32/32>>0")
    #expect(throws: ValueError.self) {
      try ScanDecoder(formats: [s32, s32, s32], offsets: [0, 4, 8], scanSize: 10)
    }
  }
}
