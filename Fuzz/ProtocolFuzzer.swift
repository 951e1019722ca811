// Fuzzes the protocol: the line splitter over raw bytes, then command and state-line parsing.
public func fuzzProtocol(_ data: UnsafePointer<UInt8>, _ size: Int) -> Int32 {
  let bytes = UnsafeRawBufferPointer(start: data, count: size)
  var splitter = LineSplitter(limit: 1024)
  for piece in splitter.append(bytes) {
    guard case .line(let line) = piece, let text = String(validating: line, as: UTF8.self) else { continue }
    _ = try? ClientCommand.parse(Substring(text))
    if let change = StateChange(line: text) {
      precondition(StateChange(line: change.line) == change, "a state line must round-trip")
      _ = ProtocolRendering.line(for: change, format: .json)
    }
    _ = InfoItem(line: text)
    _ = ProtocolError.printable(Substring(text))
  }
  return 0
}
