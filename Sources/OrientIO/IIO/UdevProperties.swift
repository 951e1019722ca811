import CUdev
import OrientSystem

/// udev database properties of IIO devices, such as `ACCEL_MOUNT_MATRIX` from systemd's hwdb.
///
/// They live only in the udev database, never in sysfs, so they are read through libudev.
public final class UdevProperties {
  private let udev: OpaquePointer?

  /// Opens libudev; without it every lookup answers nil.
  public init() { udev = udev_new() }

  deinit { if let udev { udev_unref(udev) } }

  /// The property `key` of the IIO device `id` (e.g. `iio:device0`), if set.
  public func value(_ key: String, ofIIODevice id: String) -> String? {
    guard let udev, let device = udev_device_new_from_subsystem_sysname(udev, "iio", id) else { return nil }
    defer { udev_device_unref(device) }
    return udev_device_get_property_value(device, key).map { String(cString: $0) }
  }

  /// The modalias of the nearest parent that has one (`acpi:BOSC0200:BOSC0200:`), as the
  /// hwdb's sensor rules look it up.
  public func parentModalias(ofIIODevice id: String) -> String? {
    guard let udev, let device = udev_device_new_from_subsystem_sysname(udev, "iio", id) else { return nil }
    defer { udev_device_unref(device) }
    var current: OpaquePointer? = device
    while let node = current {
      if let value = udev_device_get_sysattr_value(node, "modalias") {
        let text = String(cString: value).trimmingSpacesAndNewlines
        if !text.isEmpty { return text }
      }
      // Parents belong to the child: no unref for them.
      current = udev_device_get_parent(node)
    }
    return nil
  }
}

/// The machine's DMI modalias (`dmi:bvn...:svnLENOVO:pn80XE:...`), if the kernel exports it.
public func dmiModalias() -> String? {
  guard let text = try? readTextFile("/sys/class/dmi/id/modalias") else { return nil }
  let value = text.trimmingSpacesAndNewlines
  return value.isEmpty ? nil : value
}

extension String {
  /// The text without surrounding spaces and newlines.
  var trimmingSpacesAndNewlines: String {
    String(self.drop { $0 == " " || $0 == "\n" }.reversed().drop { $0 == " " || $0 == "\n" }.reversed())
  }
}
