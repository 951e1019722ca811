import CIIO
import OrientCore
import OrientSystem

/// How to read one sysfs attribute through libiio.
enum AttributeHandle {
  case device(OpaquePointer, String)
  case channel(OpaquePointer, String)
}

/// The result of reading an attribute.
package enum AttributeValue: Equatable, Sendable {
  /// The text without surrounding blanks, its control characters escaped (a number reads
  /// as it is).
  case text(String)
  /// The device has no such attribute.
  case missing
  /// The read failed with this errno.
  case failed(Errno)
}

/// An IIO device in a context, with its attributes indexed by sysfs file name.
///
/// libiio folds `in_accel_scale` and `in_accel_x_scale` into a channel attribute
/// `scale`; indexing by file name keeps the per-axis/shared distinction the
/// contract needs, over local and network backends alike.
///
/// Every text that comes from the device (its id, name and label, attribute names and
/// values) has its control characters escaped here, where it enters orientd: a driver or a
/// remote iiod can put a newline in a name, and a name reaches `info` replies, `--list`
/// and the log, where it must not start a line of its own.
package struct IIODevice {
  let pointer: OpaquePointer
  /// Keeps the context alive while the device is in use.
  let context: IIOContext
  private let attributes: [String: AttributeHandle]

  init(pointer: OpaquePointer, context: IIOContext) {
    self.pointer = pointer
    self.context = context
    var index: [String: AttributeHandle] = [:]
    for channelIndex in 0..<iio_device_get_channels_count(pointer) {
      guard let channel = iio_device_get_channel(pointer, channelIndex) else { continue }
      for attributeIndex in 0..<iio_channel_get_attrs_count(channel) {
        guard let name = iio_channel_get_attr(channel, attributeIndex),
          let file = iio_channel_attr_get_filename(channel, name)
        else { continue }
        let fileName = String(cString: file).escapingControlCharacters
        if index[fileName] == nil { index[fileName] = .channel(channel, String(cString: name)) }
      }
    }
    for attributeIndex in 0..<iio_device_get_attrs_count(pointer) {
      guard let name = iio_device_get_attr(pointer, attributeIndex) else { continue }
      let fileName = String(cString: name)
      let key = fileName.escapingControlCharacters
      if index[key] == nil { index[key] = .device(pointer, fileName) }
    }
    attributes = index
  }

  /// The kernel id, e.g. `iio:device0`.
  package var id: String { String(cString: iio_device_get_id(pointer)).escapingControlCharacters }

  /// The driver name, e.g. `accel_3d`.
  package var name: String {
    iio_device_get_name(pointer).map { String(cString: $0).escapingControlCharacters } ?? ""
  }

  /// The sysfs label, e.g. `accel-display`, if the device has one.
  package var label: String? {
    iio_device_get_label(pointer).map { String(cString: $0).escapingControlCharacters }
  }

  /// How to read the sysfs attribute file `fileName`, if the device has it.
  func handle(for fileName: String) -> AttributeHandle? { attributes[fileName] }

  /// Every attribute file name the device has.
  var attributeFiles: [String] { Array(attributes.keys) }

  /// Whether the device has the sysfs attribute file `fileName`, without reading it (a read of
  /// a HID sensor's `_raw` file powers the sensor and asks the hub for a report).
  package func has(_ fileName: String) -> Bool { attributes[fileName] != nil }

  /// Writes the sysfs attribute file `fileName`; returns the errno on failure.
  @discardableResult
  package func write(_ fileName: String, _ value: String) -> Errno? {
    guard let handle = attributes[fileName] else { return .noSuchFile }
    let result: Int
    switch handle {
    case .device(let device, let name): result = iio_device_attr_write(device, name, value)
    case .channel(let channel, let name): result = iio_channel_attr_write(channel, name, value)
    }
    return result < 0 ? Errno(libiioResult: result) : nil
  }

  /// The device number, e.g. 3 for `iio:device3`.
  package var number: Int? { id.hasPrefix("iio:device") ? Int(id.dropFirst("iio:device".count)) : nil }

  /// Whether a trigger is set for its buffer now (`trigger/current_trigger`).
  var hasCurrentTrigger: Bool {
    var current: OpaquePointer?
    return iio_device_get_trigger(pointer, &current) == 0 && current != nil
  }

  /// Whether this is a trigger rather than a device.
  var isTrigger: Bool { iio_device_is_trigger(pointer) }

  /// Finds an input channel by id, e.g. `accel_x`.
  func channel(_ id: String) -> OpaquePointer? { iio_device_find_channel(pointer, id, false) }

  /// Reads the sysfs attribute file `fileName`, e.g. `in_accel_x_scale`.
  package func read(_ fileName: String) -> AttributeValue {
    guard let handle = attributes[fileName] else { return .missing }
    return Self.read(handle)
  }

  static func read(_ handle: AttributeHandle) -> AttributeValue {
    var buffer = [CChar](repeating: 0, count: 512)
    let count: Int = buffer.withUnsafeMutableBufferPointer { bytes in
      switch handle {
      case .device(let device, let name):
        return iio_device_attr_read(device, name, bytes.baseAddress, bytes.count)
      case .channel(let channel, let name):
        return iio_channel_attr_read(channel, name, bytes.baseAddress, bytes.count)
      }
    }
    guard count >= 0 else { return .failed(Errno(libiioResult: count)) }
    let text = String(
      decoding: buffer.prefix(while: { $0 != 0 }).map { UInt8(bitPattern: $0) }, as: UTF8.self)
    return .text(String(text.trimmingSpaces).escapingControlCharacters)
  }
}
