// Fuzzes the buffer scan decoder: the first bytes choose the three channels' formats and
// indexes, the rest is decoded as buffer data, once whole and once as a stream of blocks
// split where the data says (as reads that end inside a scan deliver it). Scan types with any
// numbers, as a device or a remote server may declare them, must be refused, never trap.
public func fuzzScanDecoder(_ data: UnsafePointer<UInt8>, _ size: Int) -> Int32 {
  guard size >= 9 else { return 0 }
  if size >= 32 {
    var numbers: [Int] = []
    for word in 0..<4 {
      var value: UInt64 = 0
      for index in 0..<8 { value = value << 8 | UInt64(data[word * 8 + index]) }
      numbers.append(Int(Int64(bitPattern: value)))
    }
    if let format = try? ScanFormat(
      isBigEndian: false, isSigned: true, bits: numbers[0], storageBits: numbers[1], shift: numbers[2],
      repeatCount: numbers[3])
    {
      precondition(format.bits >= 1 && format.shift >= 0 && format.bits + format.shift <= format.storageBits)
    }
  }
  var channels: [(index: Int, format: ScanFormat)] = []
  for channel in 0..<3 {
    let a = data[channel * 3]
    let b = data[channel * 3 + 1]
    let storage = [8, 16, 32, 64][Int(a & 3)]
    let bits = Int(b) % storage + 1
    let shift = Int(a >> 2) % (storage - bits + 1)
    guard
      let format = try? ScanFormat(
        isBigEndian: b & 0x80 != 0, isSigned: a & 0x80 != 0, bits: bits, storageBits: storage, shift: shift,
        repeatCount: Int(data[channel * 3 + 2] % 4) + 1)
    else { return 0 }
    channels.append((Int(data[channel * 3 + 2] >> 2), format))
  }
  guard let decoder = try? ScanDecoder(x: channels[0], y: channels[1], z: channels[2]) else { return 0 }
  let payload = UnsafeRawBufferPointer(start: data + 9, count: size - 9)
  var whole: [Int64] = []
  let leftOver = decoder.decodeScans(payload) { x, y, z in
    whole += [x, y, z]
    for (value, element) in zip([x, y, z], channels) where !element.format.isSigned {
      precondition(value >= 0, "an unsigned channel never decodes negative")
    }
  }
  precondition(whole.count / 3 * decoder.scanSize + leftOver == payload.count)

  // The same bytes in blocks whose sizes come from the bytes themselves.
  var stream = ScanStream(decoder: decoder)
  var streamed: [Int64] = []
  var offset = 0
  var cut = 0
  while offset < payload.count {
    let length = min(payload.count - offset, Int(payload[cut % payload.count]) % 13 + 1)
    cut += 1
    stream.decode(UnsafeRawBufferPointer(rebasing: payload[offset..<(offset + length)])) { x, y, z in
      streamed += [x, y, z]
    }
    offset += length
  }
  precondition(streamed == whole, "a stream split anywhere decodes as the whole")
  precondition(stream.pendingByteCount == leftOver)
  return 0
}
