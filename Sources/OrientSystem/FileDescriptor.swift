import Glibc

/// A raw file descriptor with the few operations orientd needs.
public struct FileDescriptor: Hashable, Sendable {
  public var rawValue: Int32

  /// Wraps an existing descriptor.
  public init(rawValue: Int32) { self.rawValue = rawValue }

  public static let standardOutput = FileDescriptor(rawValue: 1)
  public static let standardError = FileDescriptor(rawValue: 2)

  /// Opens `path` with `flags`, close-on-exec.
  public static func open(_ path: String, _ flags: Int32, mode: mode_t = 0o644) throws(SystemError)
    -> FileDescriptor
  {
    let fd = Glibc.open(path, flags | O_CLOEXEC, mode)
    guard fd >= 0 else { throw SystemError("open \(path)") }
    return FileDescriptor(rawValue: fd)
  }

  /// Closes the descriptor.
  public func close() { _ = Glibc.close(rawValue) }

  /// Writes all of `bytes`, retrying after interrupts and partial writes.
  @discardableResult
  public func writeAll(_ bytes: UnsafeRawBufferPointer) -> Result<Void, SystemError> {
    var offset = 0
    while offset < bytes.count {
      let written = Glibc.write(rawValue, bytes.baseAddress! + offset, bytes.count - offset)
      if written < 0 {
        if errno == EINTR { continue }
        return .failure(SystemError("write"))
      }
      offset += written
    }
    return .success(())
  }

  /// Writes all of a string's UTF-8 bytes.
  @discardableResult
  public func writeAll(_ text: String) -> Result<Void, SystemError> {
    var text = text
    return text.withUTF8 { writeAll(UnsafeRawBufferPointer($0)) }
  }

  /// Reads until end of file.
  public func readToEnd() throws(SystemError) -> [UInt8] {
    var result: [UInt8] = []
    var chunk = [UInt8](repeating: 0, count: 65536)
    while true {
      let count = chunk.withUnsafeMutableBytes { Glibc.read(rawValue, $0.baseAddress, $0.count) }
      if count < 0 {
        if errno == EINTR { continue }
        throw SystemError("read")
      }
      if count == 0 { return result }
      result.append(contentsOf: chunk[0..<count])
    }
  }
}

/// Reads a whole file as UTF-8 text; invalid bytes become U+FFFD and then fail parsing.
public func readTextFile(_ path: String) throws(SystemError) -> String {
  let fd = try FileDescriptor.open(path, O_RDONLY)
  defer { fd.close() }
  do {
    return String(decoding: try fd.readToEnd(), as: UTF8.self)
  } catch {
    throw SystemError("read \(path)", code: error.code)
  }
}
