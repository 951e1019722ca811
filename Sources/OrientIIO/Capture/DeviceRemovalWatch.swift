import OrientSystem

/// udev's word that one local IIO device is gone: a netlink socket that the sampling loop
/// watches while it reads that device's buffer.
///
/// The kernel never hangs up an IIO buffer's descriptor when its device goes away: once the
/// device is unregistered, `poll` on the descriptor reports nothing at all. A buffered sensor
/// that is unplugged (a HID sensor hub's device destroyed, say) would leave its reader waiting
/// forever. udev's remove event says so instead, and costs nothing until it comes.
package final class DeviceRemovalWatch {
  private let monitor: UdevEventMonitor
  private let deviceID: String

  /// The socket to watch for readability; libudev owns it.
  package var descriptor: Int32 { monitor.descriptor }

  /// Listens for the removal of the IIO device `deviceID` (`iio:device0`), or nil when udev's
  /// events cannot be had.
  package init?(deviceID: String) {
    guard let monitor = UdevEventMonitor(subsystems: ["iio"]) else { return nil }
    self.monitor = monitor
    self.deviceID = deviceID
  }

  /// Reads the events waiting on the socket; whether one said the device was removed.
  package func deviceRemoved() -> Bool {
    monitor.receive().contains {
      $0.action == "remove" && $0.syspath.split(separator: "/").last.map(String.init) == deviceID
    }
  }
}
