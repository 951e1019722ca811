import OrientSystem

/// Polls raw attributes on sysfs by re-reading files opened once.
///
/// A read at offset 0 makes the kernel produce a fresh value, so a poll costs one pread per
/// attribute, where libiio's local backend opens, reads and closes each file every time.
/// Only sysfs regenerates values this way: on any other file system (a test tree, where a
/// file may be replaced by a new one) the caller reads through libiio instead.
public final class SysfsAttributeReader {
  private final class OpenAttribute {
    let name: String
    let file: FileDescriptor
    init(name: String, file: consuming FileDescriptor) {
      self.name = name
      self.file = file
    }
  }

  private let attributes: [OpenAttribute]
  private let buffer = UnsafeMutableBufferPointer<UInt8>.allocate(capacity: 128)

  /// Opens `files` in `directory`; nil when one cannot be opened or is not on sysfs.
  public init?(directory: String, files: [String]) {
    var attributes: [OpenAttribute] = []
    for name in files {
      guard let file = try? FileDescriptor.open(directory + "/" + name, .readOnly),
        (try? file.isOnSysfs()) == true
      else {
        buffer.deallocate()
        return nil
      }
      attributes.append(OpenAttribute(name: name, file: file))
    }
    self.attributes = attributes
  }

  deinit { buffer.deallocate() }

  /// Reads and parses every attribute, in the order of `files`.
  public func read(into values: inout [Double]) -> RawReadError? {
    for (index, attribute) in attributes.enumerated() {
      let count: Int
      do {
        count = try attribute.file.read(into: UnsafeMutableRawBufferPointer(buffer), atOffset: 0)
      } catch {
        return .failed(attribute.name, error.code)
      }
      switch parseRawValue(UnsafeBufferPointer(rebasing: buffer[..<count]), file: attribute.name) {
      case .success(let value): values[index] = value
      case .failure(let error): return error
      }
    }
    return nil
  }
}
