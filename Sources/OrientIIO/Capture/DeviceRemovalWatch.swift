import CUdev
import OrientSystem

/// udev's word that one local IIO device is gone: a netlink socket that the sampling loop
/// watches while it reads that device's buffer.
///
/// The kernel never hangs up an IIO buffer's descriptor when its device goes away: once the
/// device is unregistered, `poll` on the descriptor reports nothing at all. A buffered sensor
/// that is unplugged (a HID sensor hub's device destroyed, say) would leave its reader waiting
/// forever. udev's remove event says so instead, and costs nothing until it comes.
public final class DeviceRemovalWatch {
  private let udev: OpaquePointer
  private let monitor: OpaquePointer
  private let deviceID: String
  /// The socket to watch for readability; libudev owns it.
  public let descriptor: Int32

  /// Listens for the removal of the IIO device `deviceID` (`iio:device0`), or nil when udev's
  /// events cannot be had.
  public init?(deviceID: String) {
    guard let udev = udev_new() else { return nil }
    guard let monitor = udev_monitor_new_from_netlink(udev, "udev") else {
      udev_unref(udev)
      return nil
    }
    let fd = udev_monitor_get_fd(monitor)
    guard udev_monitor_filter_add_match_subsystem_devtype(monitor, "iio", nil) >= 0,
      udev_monitor_enable_receiving(monitor) >= 0, fd >= 0,
      (try? LibraryDescriptor(fd).setNonBlocking()) != nil
    else {
      udev_monitor_unref(monitor)
      udev_unref(udev)
      return nil
    }
    self.udev = udev
    self.monitor = monitor
    self.deviceID = deviceID
    descriptor = fd
  }

  deinit {
    udev_monitor_unref(monitor)
    udev_unref(udev)
  }

  /// Reads the events waiting on the socket; whether one said the device was removed.
  public func deviceRemoved() -> Bool {
    var removed = false
    // Bounded: a flood of IIO events is read a batch at a time.
    for _ in 0..<64 {
      guard let device = udev_monitor_receive_device(monitor) else { break }
      defer { udev_device_unref(device) }
      guard let action = udev_device_get_action(device), String(cString: action) == "remove",
        let name = udev_device_get_sysname(device)
      else { continue }
      if String(cString: name) == deviceID { removed = true }
    }
    return removed
  }
}
