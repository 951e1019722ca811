/// How one channel is stored in a buffer scan, as sysfs `scan_elements/*_type` describes it:
/// `le:s12/16>>4` is little-endian, signed, 12 significant bits in 16 bits of storage, shifted by 4.
package struct ScanFormat: Equatable, Sendable {
  package var isBigEndian: Bool
  package var isSigned: Bool
  /// Significant bits.
  package var bits: Int
  /// Bits of storage, a multiple of 8 from 8 to 64.
  package var storageBits: Int
  /// Right shift applied to the stored word before masking.
  package var shift: Int
  /// How many values the element holds; only the first is used.
  package var repeatCount: Int

  /// Creates a format, checking that it describes something decodable.
  package init(
    isBigEndian: Bool, isSigned: Bool, bits: Int, storageBits: Int, shift: Int, repeatCount: Int = 1
  ) throws(ValueError) {
    guard [8, 16, 32, 64].contains(storageBits) else {
      throw ValueError("storage of \(storageBits) bits (expected 8, 16, 32 or 64)")
    }
    // Compared without adding: the numbers come from a device (or a remote server) and may be
    // anything, so `bits + shift` could overflow.
    guard bits >= 1, bits <= storageBits, shift >= 0, shift <= storageBits - bits else {
      throw ValueError("\(bits) bits shifted by \(shift) do not fit in \(storageBits)")
    }
    guard repeatCount >= 1, repeatCount <= 64 else { throw ValueError("repeat count \(repeatCount)") }
    self.isBigEndian = isBigEndian
    self.isSigned = isSigned
    self.bits = bits
    self.storageBits = storageBits
    self.shift = shift
    self.repeatCount = repeatCount
  }

  /// Bytes the element takes in a scan (all repeats).
  package var byteCount: Int { storageBits / 8 * repeatCount }

  /// Parses the sysfs form, e.g. `le:s16/16>>0` or `be:u12/16X2>>4` (letters in either case).
  package static func parse(_ text: some StringProtocol) throws(ValueError) -> ScanFormat {
    let trimmed = text.trimmingSpaces
    let parts = trimmed.split(separator: ":", maxSplits: 1)
    guard parts.count == 2, parts[0] == "le" || parts[0] == "be" else {
      throw ValueError("scan type '\(trimmed)' does not start with le: or be:")
    }
    var rest = parts[1]
    guard let sign = rest.first, "sSuU".contains(sign) else {
      throw ValueError("scan type '\(trimmed)' has no s or u sign letter")
    }
    rest = rest.dropFirst()
    guard let marker = rest.indices.first(where: { rest[$0] == ">" }),
      rest.index(after: marker) < rest.endIndex, rest[rest.index(after: marker)] == ">",
      let shift = NumberParsing.unsignedInteger(rest[rest.index(marker, offsetBy: 2)...], maximum: 64)
    else {
      throw ValueError("scan type '\(trimmed)' has no >>shift")
    }
    let sizes = rest[..<marker].split(separator: "/", maxSplits: 1)
    guard sizes.count == 2, let bits = NumberParsing.unsignedInteger(sizes[0], maximum: 64) else {
      throw ValueError("scan type '\(trimmed)' has no bits/storage")
    }
    let storageParts = sizes[1].split(whereSeparator: { $0 == "X" || $0 == "x" })
    guard (1...2).contains(storageParts.count),
      let storage = NumberParsing.unsignedInteger(storageParts[0], maximum: 64),
      let repeatCount = storageParts.count == 2
        ? NumberParsing.unsignedInteger(storageParts[1], maximum: 64) : 1
    else {
      throw ValueError("scan type '\(trimmed)' has a bad storage size")
    }
    do {
      return try ScanFormat(
        isBigEndian: parts[0] == "be", isSigned: sign == "s" || sign == "S", bits: bits, storageBits: storage,
        shift: shift, repeatCount: repeatCount)
    } catch {
      throw ValueError("scan type '\(trimmed)': \(error.message)")
    }
  }

  /// Decodes the element at the start of `bytes` (which must hold `storageBits / 8` bytes).
  @inlinable
  package func decode(_ bytes: UnsafeRawBufferPointer) -> Int64 {
    let size = storageBits / 8
    var word: UInt64 = 0
    for index in 0..<size {
      let byte = UInt64(bytes[isBigEndian ? index : size - 1 - index])
      word = (word << 8) | byte
    }
    word >>= UInt64(shift)
    if bits < 64 { word &= (UInt64(1) << UInt64(bits)) - 1 }
    if isSigned, bits < 64, word & (UInt64(1) << UInt64(bits - 1)) != 0 {
      word |= ~((UInt64(1) << UInt64(bits)) - 1)
    }
    return isSigned ? Int64(bitPattern: word) : Int64(clamping: word)
  }
}

/// Where each enabled channel sits in a scan, computed as the kernel does: channels in
/// index order, each aligned to its own size, the scan padded to the largest one.
package struct ScanLayout: Equatable, Sendable {
  /// Byte offset of each channel, in the order they were given.
  package let offsets: [Int]
  /// Bytes per scan.
  package let scanSize: Int

  /// Lays out channels given as (scan index, format), in any order.
  package init(channels: [(index: Int, format: ScanFormat)]) {
    let order = channels.indices.sorted { channels[$0].index < channels[$1].index }
    var offsets = [Int](repeating: 0, count: channels.count)
    var size = 0
    var largest = 1
    for position in order {
      let element = channels[position].format
      let alignment = element.storageBits / 8
      size = (size + alignment - 1) / alignment * alignment
      offsets[position] = size
      size += element.byteCount
      largest = max(largest, alignment)
    }
    self.offsets = offsets
    scanSize = (size + largest - 1) / largest * largest
  }
}

/// Decodes the x, y and z raw values of every complete scan in a block of buffer data.
package struct ScanDecoder: Sendable {
  let formats: [ScanFormat]
  package let offsets: [Int]
  package let scanSize: Int

  /// Creates a decoder for x, y and z with their formats and offsets, and the scan size.
  package init(formats: [ScanFormat], offsets: [Int], scanSize: Int) throws(ValueError) {
    guard formats.count == 3, offsets.count == 3 else { throw ValueError("need x, y and z") }
    guard scanSize >= 1 else { throw ValueError("a scan of \(scanSize) bytes") }
    for (format, offset) in zip(formats, offsets)
    where offset < 0 || offset > scanSize - format.storageBits / 8 {
      throw ValueError("a channel at byte \(offset) does not fit a scan of \(scanSize) bytes")
    }
    self.formats = formats
    self.offsets = offsets
    self.scanSize = scanSize
  }

  /// Creates a decoder from the kernel's layout rules.
  package init(
    x: (index: Int, format: ScanFormat), y: (index: Int, format: ScanFormat),
    z: (index: Int, format: ScanFormat)
  )
    throws(ValueError)
  {
    let layout = ScanLayout(channels: [x, y, z])
    try self.init(
      formats: [x.format, y.format, z.format], offsets: layout.offsets, scanSize: layout.scanSize)
  }

  /// Calls `body` with (x, y, z) for every whole scan; returns the bytes left over (a partial scan).
  @discardableResult
  func decodeScans(_ data: UnsafeRawBufferPointer, _ body: (Int64, Int64, Int64) -> Void) -> Int {
    var start = 0
    while start + scanSize <= data.count {
      let scan = UnsafeRawBufferPointer(rebasing: data[start..<(start + scanSize)])
      body(
        formats[0].decode(UnsafeRawBufferPointer(rebasing: scan[offsets[0]...])),
        formats[1].decode(UnsafeRawBufferPointer(rebasing: scan[offsets[1]...])),
        formats[2].decode(UnsafeRawBufferPointer(rebasing: scan[offsets[2]...])))
      start += scanSize
    }
    return data.count - start
  }
}
