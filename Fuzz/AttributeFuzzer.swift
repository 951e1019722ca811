// Fuzzes what orientd reads from sysfs: raw values (bytes and text), scales, scan types,
// allowed lists and the state file.
public func fuzzAttributes(_ data: UnsafePointer<UInt8>, _ size: Int) -> Int32 {
  let bytes = UnsafeBufferPointer(start: data, count: size)
  if let value = NumberParsing.finiteDouble(bytes: bytes) { precondition(value.isFinite) }
  let text = String(decoding: UnsafeRawBufferPointer(bytes), as: UTF8.self)
  if let value = NumberParsing.finiteDouble(text) { precondition(value.isFinite) }
  _ = NumberParsing.seconds(text)
  if let format = try? ScanFormat.parse(text) {
    precondition(format.byteCount >= 1 && format.bits + format.shift <= format.storageBits)
  }
  _ = try? AllowedOrientations.parse(text)
  _ = try? PersistedState.parse(text)
  return 0
}
