// Fuzzes the buffer scan decoder: the first bytes choose the three channels' formats and
// indexes, the rest is decoded as buffer data.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzScanDecoder(_ data: UnsafePointer<UInt8>, _ size: Int) -> Int32 {
  guard size >= 9 else { return 0 }
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
  var scans = 0
  let leftOver = decoder.decodeScans(payload) { x, y, z in
    scans += 1
    for (value, element) in zip([x, y, z], channels) where !element.format.isSigned {
      precondition(value >= 0, "an unsigned channel never decodes negative")
    }
  }
  precondition(scans * decoder.scanSize + leftOver == payload.count)
  return 0
}
