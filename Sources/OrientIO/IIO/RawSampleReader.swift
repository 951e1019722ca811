import CIIO
import Glibc
import OrientCore
import OrientSystem

/// Reads the x, y and z raw attributes on every poll without building any String.
///
/// The attribute handles and C names are resolved once, the bytes land in one
/// reused buffer and are parsed in place: the steady-state poll runs little code,
/// which keeps it cheap in CPU time and in resident code pages.
final class RawSampleReader {
  private struct Axis {
    let file: String
    let channel: OpaquePointer?
    let device: OpaquePointer?
    let name: UnsafeMutablePointer<CChar>
  }

  private let axes: [Axis]
  private let buffer = UnsafeMutableBufferPointer<CChar>.allocate(capacity: 128)

  /// Resolves the three attribute files; nil when any is missing.
  init?(device: IIODevice, files: [String]) {
    var axes: [Axis] = []
    for file in files {
      switch device.handle(for: file) {
      case .channel(let channel, let name):
        axes.append(Axis(file: file, channel: channel, device: nil, name: strdup(name)))
      case .device(let device, let name):
        axes.append(Axis(file: file, channel: nil, device: device, name: strdup(name)))
      case nil:
        for axis in axes { free(axis.name) }
        buffer.deallocate()
        return nil
      }
    }
    self.axes = axes
  }

  deinit {
    for axis in axes { free(axis.name) }
    buffer.deallocate()
  }

  /// Reads and parses the three values.
  func read() -> Result<(Double, Double, Double), RawReadError> {
    var values = (0.0, 0.0, 0.0)
    for index in 0..<3 {
      let axis = axes[index]
      let count =
        if let channel = axis.channel {
          iio_channel_attr_read(channel, axis.name, buffer.baseAddress, buffer.count)
        } else {
          iio_device_attr_read(axis.device, axis.name, buffer.baseAddress, buffer.count)
        }
      if count < 0 {
        let code = Int32(-count)
        return .failure(code == ENOENT ? .missing(file: axis.file) : .readFailed(file: axis.file, code: code))
      }
      let length = strnlen(buffer.baseAddress!, buffer.count)
      let parsed = UnsafeRawPointer(buffer.baseAddress!).withMemoryRebound(to: UInt8.self, capacity: length) {
        NumberParsing.finiteDouble(bytes: UnsafeBufferPointer(start: $0, count: length))
      }
      guard let value = parsed, abs(value) < 1e12 else {
        let text = String(cString: buffer.baseAddress!)
        return .failure(.garbage(file: axis.file, value: text))
      }
      switch index {
      case 0: values.0 = value
      case 1: values.1 = value
      default: values.2 = value
      }
    }
    return .success(values)
  }
}
