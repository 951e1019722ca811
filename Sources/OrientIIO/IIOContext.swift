import CIIO
import OrientSystem

/// An open libiio context: the local sysfs backend, or a remote one such as `ip:HOST`.
public final class IIOContext {
  let pointer: OpaquePointer
  /// The URI as the user gave it, or `local:` for the default.
  public let uri: String

  /// Opens a context; nil opens the local one.
  public init(uri: String?) throws(SystemError) {
    let target = uri ?? "local:"
    guard let pointer = iio_create_context_from_uri(target) else {
      throw SystemError("cannot open IIO context \(target)", code: .current)
    }
    self.pointer = pointer
    self.uri = target
  }

  deinit { iio_context_destroy(pointer) }

  /// True for the local sysfs backend, the only one udev knows about.
  public var isLocal: Bool {
    String(cString: iio_context_get_name(pointer)) == "local"
  }

  /// Bounds how long a remote read may wait.
  public func setTimeout(milliseconds: UInt32) { _ = iio_context_set_timeout(pointer, milliseconds) }

  /// Every device in the context, in libiio's order.
  public var devices: [IIODevice] {
    let count = iio_context_get_devices_count(pointer)
    return (0..<count).compactMap { index in
      iio_context_get_device(pointer, index).map { IIODevice(pointer: $0, context: self) }
    }
  }
}
