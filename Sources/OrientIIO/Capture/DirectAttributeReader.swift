import OrientSystem

/// Polls raw attributes of a local device by re-reading files opened once.
///
/// On sysfs a read at offset 0 makes the kernel produce a fresh value, so a poll costs one
/// pread per attribute, where libiio's local backend opens, reads and closes each file
/// every time. A tree that is not sysfs (a umockdev testbed) may change a value by renaming
/// a new file over the old one, which an open file would never show: there each file is
/// also checked on every poll, and one that was replaced or removed is opened again.
/// Which of the two is decided once, by the file system the attributes live on.
package final class DirectAttributeReader {
  private final class OpenAttribute {
    let path: String
    let name: String
    var file: FileDescriptor

    init(path: String, name: String, file: consuming FileDescriptor) {
      self.path = path
      self.name = name
      self.file = file
    }
  }

  private let attributes: [OpenAttribute]
  private let buffer = UnsafeMutableBufferPointer<UInt8>.allocate(capacity: 128)
  /// False on sysfs, where an attribute file is never replaced while its device lives.
  package let checksForReplacement: Bool

  /// Opens `files` in `directory`; nil when one cannot be opened, and the caller reads them
  /// through libiio instead, which reports its own errors.
  package init?(directory: String, files: [String]) {
    var attributes: [OpenAttribute] = []
    for name in files {
      let path = directory + "/" + name
      guard let file = try? FileDescriptor.open(path, .readOnly) else {
        buffer.deallocate()
        return nil
      }
      attributes.append(OpenAttribute(path: path, name: name, file: file))
    }
    self.attributes = attributes
    // Not known to be on sysfs is treated as not: checking costs a little, skipping could miss.
    checksForReplacement = (try? attributes.first?.file.isOnSysfs()) != true
  }

  deinit { buffer.deallocate() }

  /// Reads and parses every attribute, in the order of `files`.
  package func read(into values: inout [Double]) -> RawReadError? {
    for (index, attribute) in attributes.enumerated() {
      let count: Int
      do {
        if checksForReplacement, try attribute.file.linkCount() == 0 {
          // Replaced (a new file has the name) or removed (opening fails: the device is gone).
          attribute.file = try FileDescriptor.open(attribute.path, .readOnly)
        }
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
