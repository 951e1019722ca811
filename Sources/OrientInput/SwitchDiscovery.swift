import CUdev

/// Finds input devices with switches through libudev: those udev tags `ID_INPUT_SWITCH=1`
/// that have an evdev node. Whether a device has `SW_TABLET_MODE` or `SW_LID` is checked
/// later, on the opened device (`SwitchDevice`), because udev's tag covers every switch.
final class SwitchDiscovery {
  /// libudev's context, shared with the monitor made from it.
  let udev: OpaquePointer

  /// Opens libudev.
  init() throws(InputError) {
    LibevdevMessages.install()
    guard let udev = udev_new() else { throw InputError("cannot open libudev") }
    self.udev = udev
  }

  deinit { udev_unref(udev) }

  /// The input devices with switches present now, in udev's order.
  func candidates() -> [SwitchCandidate] {
    guard let enumerate = udev_enumerate_new(udev) else { return [] }
    defer { udev_enumerate_unref(enumerate) }
    udev_enumerate_add_match_subsystem(enumerate, "input")
    udev_enumerate_add_match_property(enumerate, "ID_INPUT_SWITCH", "1")
    guard udev_enumerate_scan_devices(enumerate) >= 0 else { return [] }
    var found: [SwitchCandidate] = []
    var entry = udev_enumerate_get_list_entry(enumerate)
    while let current = entry {
      if let name = udev_list_entry_get_name(current),
        let device = udev_device_new_from_syspath(udev, name)
      {
        if let candidate = Self.candidate(device) { found.append(candidate) }
        udev_device_unref(device)
      }
      entry = udev_list_entry_get_next(current)
    }
    return found
  }

  /// The device as a candidate, if it is an evdev node udev tagged as having switches.
  static func candidate(_ device: OpaquePointer) -> SwitchCandidate? {
    guard let property = udev_device_get_property_value(device, "ID_INPUT_SWITCH"),
      String(cString: property) == "1", let syspath = udev_device_get_syspath(device),
      let node = udev_device_get_devnode(device)
    else { return nil }
    let devnode = String(cString: node)
    guard SwitchCandidate.isEventNode(devnode) else { return nil }
    return SwitchCandidate(syspath: String(cString: syspath), devnode: devnode)
  }
}
