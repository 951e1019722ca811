// Fuzzes the config file: parsing every line, then applying the entries to the options.
public func fuzzConfig(_ data: UnsafePointer<UInt8>, _ size: Int) -> Int32 {
  let text = String(decoding: UnsafeRawBufferPointer(start: data, count: size), as: UTF8.self)
  guard let entries = try? ConfigFile.parse(text, path: "fuzz.conf") else { return 0 }
  if let options = try? DaemonOptions(config: entries) {
    _ = try? options.settings.validate()
  }
  return 0
}
