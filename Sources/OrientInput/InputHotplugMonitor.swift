import CUdev
import OrientSystem

/// What udev says happened to an input device.
enum InputHotplugEvent: Equatable, Sendable {
  /// A device with switches appeared (or changed and may have new ones).
  case added(SwitchCandidate)
  /// The device at this sysfs path went away.
  case removed(syspath: String)
}

/// udev's events for the `input` subsystem: a netlink socket the caller watches for
/// readability on its event loop. Nothing is polled: the socket wakes the loop only when
/// a device comes or goes.
final class InputHotplugMonitor {
  private let discovery: SwitchDiscovery
  private let monitor: OpaquePointer

  /// The socket to watch, non-blocking and close-on-exec; libudev owns it.
  let descriptor: Int32

  /// Listens to udev's (not the kernel's) events, which come after udev has set the
  /// device's properties such as `ID_INPUT_SWITCH`.
  init(_ discovery: SwitchDiscovery) throws(InputError) {
    self.discovery = discovery
    guard let monitor = udev_monitor_new_from_netlink(discovery.udev, "udev") else {
      throw InputError("cannot listen to udev's events (udev_monitor_new_from_netlink failed)")
    }
    let filtered = udev_monitor_filter_add_match_subsystem_devtype(monitor, "input", nil)
    let receiving = filtered >= 0 ? udev_monitor_enable_receiving(monitor) : filtered
    let fd = udev_monitor_get_fd(monitor)
    guard receiving >= 0, fd >= 0 else {
      udev_monitor_unref(monitor)
      let code = receiving < 0 ? -receiving : -fd
      throw InputError(
        "cannot listen to udev's input events: \(Errno(rawValue: code))", code: Errno(rawValue: code))
    }
    do {
      try LibraryDescriptor(fd).setNonBlocking()
    } catch {
      udev_monitor_unref(monitor)
      throw InputError("cannot listen to udev's input events: \(error)", code: error.code)
    }
    self.monitor = monitor
    descriptor = fd
  }

  deinit { udev_monitor_unref(monitor) }

  /// The events waiting on the socket, until it would block. Events about devices that
  /// are not evdev switch nodes are left out, except removals, which the caller matches
  /// against what it holds.
  func receive() -> [InputHotplugEvent] {
    var events: [InputHotplugEvent] = []
    // Bounded: a flood of uevents is read a batch at a time, the rest on the next wake-up.
    for _ in 0..<64 {
      guard let device = udev_monitor_receive_device(monitor) else { break }
      defer { udev_device_unref(device) }
      let action = udev_device_get_action(device).map { String(cString: $0) } ?? ""
      switch action {
      case "remove":
        if let syspath = udev_device_get_syspath(device) {
          events.append(.removed(syspath: String(cString: syspath)))
        }
      case "add", "change":
        if let candidate = SwitchDiscovery.candidate(device) { events.append(.added(candidate)) }
      default:
        break
      }
    }
    return events
  }
}
