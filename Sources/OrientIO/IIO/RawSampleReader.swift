import CIIO
import Glibc
import OrientCore
import OrientSystem

/// Reads the x, y and z raw attributes on every poll without building any String.
///
/// On the local backend the three sysfs files are opened once and re-read with pread at
/// offset 0, which makes the kernel produce a fresh value each time: a poll costs three
/// reads instead of three opens, reads and closes. Remote contexts read through libiio,
/// with the attribute handles and C names resolved once. Either way the bytes land in one
/// reused buffer and are parsed in place.
final class RawSampleReader {
  private struct Axis {
    let file: String
    let channel: OpaquePointer?
    let device: OpaquePointer?
    let name: UnsafeMutablePointer<CChar>
  }

  private let axes: [Axis]
  private let buffer = UnsafeMutableBufferPointer<CChar>.allocate(capacity: 128)
  /// The device's sysfs directory when reading it directly (the local backend).
  private let sysfsDirectory: String?
  private var descriptors: [Int32] = []
  private var lastUnlinkCheck: UInt64 = 0

  /// Resolves the three attribute files; nil when any is missing. With `directReads`, the
  /// files are read straight from /sys/bus/iio/devices.
  init?(device: IIODevice, files: [String], directReads: Bool) {
    sysfsDirectory = directReads ? "/sys/bus/iio/devices/\(device.id)" : nil
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
    closeFiles()
    buffer.deallocate()
  }

  private func closeFiles() {
    for fd in descriptors { close(fd) }
    descriptors = []
  }

  /// Reads one attribute into the buffer (NUL-terminated); returns its length or an errno.
  private func readAttribute(_ index: Int) -> Result<Int, SystemError> {
    let axis = axes[index]
    guard let directory = sysfsDirectory else {
      let count =
        if let channel = axis.channel {
          iio_channel_attr_read(channel, axis.name, buffer.baseAddress, buffer.count)
        } else {
          iio_device_attr_read(axis.device, axis.name, buffer.baseAddress, buffer.count)
        }
      guard count >= 0 else { return .failure(SystemError("read \(axis.file)", code: Int32(-count))) }
      return .success(strnlen(buffer.baseAddress!, buffer.count))
    }
    if descriptors.isEmpty {
      for file in axes.map(\.file) {
        let fd = open(directory + "/" + file, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else {
          let error = SystemError("open \(file)")
          closeFiles()
          return .failure(error)
        }
        descriptors.append(fd)
      }
    }
    let count = pread(descriptors[index], buffer.baseAddress, buffer.count - 1, 0)
    guard count >= 0 else {
      let error = SystemError("read \(axis.file)")
      closeFiles()
      return .failure(error)
    }
    buffer[count] = 0
    return .success(count)
  }

  /// Reads and parses the three values; `now` is the monotonic time in nanoseconds.
  func read(now: UInt64) -> Result<(Double, Double, Double), RawReadError> {
    // A removed device makes the kernel fail sysfs reads with ENODEV. A tree that is not
    // sysfs (a umockdev testbed) keeps serving a removed file's last bytes, so every 3 s the
    // first file is also checked for having been unlinked: the device was removed (reopening
    // fails) or the attribute replaced by a new file (reopening reads the new one). fstat on
    // the open file, not a path lookup: it costs less than one of the reads.
    if sysfsDirectory != nil, let first = descriptors.first {
      if now - lastUnlinkCheck >= 3_000_000_000 {
        lastUnlinkCheck = now
        var info = stat()
        if fstat(first, &info) != 0 || info.st_nlink == 0 { closeFiles() }
      }
    }
    var values = (0.0, 0.0, 0.0)
    for index in 0..<3 {
      let axis = axes[index]
      let length: Int
      switch readAttribute(index) {
      case .success(let count): length = count
      case .failure(let error):
        let code = error.code
        return .failure(code == ENOENT ? .missing(file: axis.file) : .readFailed(file: axis.file, code: code))
      }
      let parsed = UnsafeRawPointer(buffer.baseAddress!).withMemoryRebound(to: UInt8.self, capacity: length) {
        NumberParsing.finiteDouble(bytes: UnsafeBufferPointer(start: $0, count: length))
      }
      guard let value = parsed, abs(value) < 1e12 else {
        let text = String(String(cString: buffer.baseAddress!).trimmingSpaces)
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
