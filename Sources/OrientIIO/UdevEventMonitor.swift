import CUdev
import OrientSystem

/// udev's events for some subsystems: a netlink socket the owner watches on its loop, which
/// wakes it only when a device comes, changes or goes.
package final class UdevEventMonitor {
  private let udev: OpaquePointer
  private let monitor: OpaquePointer
  /// The socket to watch for readability; libudev owns it.
  package let descriptor: Int32

  /// Listens to udev's (not the kernel's) events for `subsystems`, which come after udev has
  /// set the device's properties; nil when they cannot be had.
  package init?(subsystems: [String]) {
    guard let udev = udev_new() else { return nil }
    guard let monitor = udev_monitor_new_from_netlink(udev, "udev") else {
      udev_unref(udev)
      return nil
    }
    let fd = udev_monitor_get_fd(monitor)
    guard subsystems.allSatisfy({ udev_monitor_filter_add_match_subsystem_devtype(monitor, $0, nil) >= 0 }),
      udev_monitor_enable_receiving(monitor) >= 0, fd >= 0,
      // Like udev's failures before it, one nil for the caller: there is no monitor either way.
      (try? LibraryDescriptor(fd).setNonBlocking()) != nil
    else {
      udev_monitor_unref(monitor)
      udev_unref(udev)
      return nil
    }
    self.udev = udev
    self.monitor = monitor
    descriptor = fd
  }

  deinit {
    udev_monitor_unref(monitor)
    udev_unref(udev)
  }

  /// An event: what happened (`add`, `change`, `remove`, ...) to the device at a sysfs path.
  package struct Event: Equatable, Sendable {
    package var action: String
    package var subsystem: String
    package var syspath: String
  }

  /// The events waiting, a batch at a time (a flood is read over several wake-ups).
  package func receive() -> [Event] {
    var events: [Event] = []
    for _ in 0..<64 {
      guard let device = udev_monitor_receive_device(monitor) else { break }
      defer { udev_device_unref(device) }
      func text(_ value: UnsafePointer<CChar>?) -> String { value.map { String(cString: $0) } ?? "" }
      events.append(
        Event(
          action: text(udev_device_get_action(device)), subsystem: text(udev_device_get_subsystem(device)),
          syspath: text(udev_device_get_syspath(device))))
    }
    return events
  }
}
