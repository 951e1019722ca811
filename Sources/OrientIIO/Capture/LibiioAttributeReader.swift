import CIIO
import OrientSystem

/// Polls raw attributes through libiio: the path for remote contexts (iiod), and for a local
/// device whose files cannot be opened directly.
///
/// The attribute handles and their C names are resolved once, and every value lands in one
/// reused buffer.
final class LibiioAttributeReader {
  private struct Attribute {
    let file: String
    let handle: AttributeHandle
    /// The attribute's name as libiio takes it, NUL-terminated.
    let name: [CChar]
  }

  private let attributes: [Attribute]
  private let buffer = UnsafeMutableBufferPointer<UInt8>.allocate(capacity: 128)

  /// Resolves `files` on `device`; nil when one is missing.
  init?(device: IIODevice, files: [String]) {
    var attributes: [Attribute] = []
    for file in files {
      guard let handle = device.handle(for: file) else {
        buffer.deallocate()
        return nil
      }
      let name: String
      switch handle {
      case .channel(_, let attribute), .device(_, let attribute): name = attribute
      }
      attributes.append(Attribute(file: file, handle: handle, name: Array(name.utf8CString)))
    }
    self.attributes = attributes
  }

  deinit { buffer.deallocate() }

  /// Reads and parses every attribute, in the order of `files`.
  func read(into values: inout [Double]) -> RawReadError? {
    for (index, attribute) in attributes.enumerated() {
      let text = UnsafeMutableRawPointer(buffer.baseAddress!).assumingMemoryBound(to: CChar.self)
      let count = attribute.name.withUnsafeBufferPointer { name in
        switch attribute.handle {
        case .channel(let channel, _):
          return iio_channel_attr_read(channel, name.baseAddress, text, buffer.count)
        case .device(let device, _):
          return iio_device_attr_read(device, name.baseAddress, text, buffer.count)
        }
      }
      guard count >= 0 else { return .failed(attribute.file, Errno(libiioResult: count)) }
      // libiio ends the value with a NUL.
      let length = buffer.firstIndex(of: 0) ?? buffer.count
      switch parseRawValue(UnsafeBufferPointer(rebasing: buffer[..<length]), file: attribute.file) {
      case .success(let value): values[index] = value
      case .failure(let error): return error
      }
    }
    return nil
  }
}
