import CUdev
import OrientCore

/// udev database properties of IIO devices, such as `ACCEL_MOUNT_MATRIX` from systemd's hwdb.
///
/// They live only in the udev database, never in sysfs, so they are read through libudev.
/// Values come back with their control characters escaped, as every text from a device is
/// (see `IIODevice`): they reach `info`, `--list` and the log.
package final class UdevProperties {
  private let udev: OpaquePointer?

  /// Opens libudev; without it every lookup answers nil.
  package init() { udev = udev_new() }

  deinit { if let udev { udev_unref(udev) } }

  /// The property `key` of the IIO device `id` (e.g. `iio:device0`), if set.
  package func value(_ key: String, ofIIODevice id: String) -> String? {
    guard let udev, let device = udev_device_new_from_subsystem_sysname(udev, "iio", id) else { return nil }
    defer { udev_device_unref(device) }
    return udev_device_get_property_value(device, key).map { String(cString: $0).escapingControlCharacters }
  }

  /// The modalias of the nearest parent that has one (`acpi:BOSC0200:BOSC0200:`), as the
  /// hwdb's sensor rules look it up.
  package func parentModalias(ofIIODevice id: String) -> String? {
    guard let udev, let device = udev_device_new_from_subsystem_sysname(udev, "iio", id) else { return nil }
    defer { udev_device_unref(device) }
    var current: OpaquePointer? = device
    while let node = current {
      if let value = udev_device_get_sysattr_value(node, "modalias") {
        let text = String(String(cString: value).trimmingSpaces)
        if !text.isEmpty { return text.escapingControlCharacters }
      }
      // Parents belong to the child: no unref for them.
      current = udev_device_get_parent(node)
    }
    return nil
  }
}
