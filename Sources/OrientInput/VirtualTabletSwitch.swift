import CEvdev
import Glibc
import OrientSystem

/// A tablet-mode switch of orientd's own, made through uinput, for machines whose mode
/// comes from the hinge angle: libinput then turns the keyboard and touchpad off in tablet
/// mode and desktops show their on-screen keyboard, as with a hardware switch.
///
/// It has `EV_SW`/`SW_TABLET_MODE` only and starts in laptop mode (the kernel's initial
/// state of a switch is 0). It is created once, and written only when the mode changes.
/// Failing to create it or to write to it is logged here, once, because the daemon goes on
/// without it: the switch only mirrors a mode that orientd serves anyway. libevdev opens
/// and closes `/dev/uinput` itself; the device goes with the object (`UI_DEV_DESTROY`).
package final class VirtualTabletSwitch {
  /// The device's name, by which orientd knows its own switch among the input devices.
  static let deviceName = "orientd tablet-mode switch"

  private let device: OpaquePointer
  /// What the device reports now; a new uinput switch starts at 0, laptop mode.
  private var tablet = false
  /// Whether the last write failed: a run of failures is logged once, not once per change.
  private var failing = false

  /// Creates the uinput device and logs where it is. Without /dev/uinput (or permission to
  /// use it), logs why once and returns nil, and orientd goes on without it.
  package init?() {
    do {
      device = try Self.create()
    } catch {
      Log.warning("\(error); going on without it")
      return nil
    }
    Log.info("virtual tablet-mode switch created" + (devnode.map { " at \($0)" } ?? ""))
  }

  deinit { libevdev_uinput_destroy(device) }

  /// Reports tablet mode (true) or laptop mode, if that is a change: `SW_TABLET_MODE` then
  /// `SYN_REPORT`. A failed write is logged (once per run of failures) and tried again at
  /// the next change.
  package func set(tablet: Bool) {
    guard tablet != self.tablet else { return }
    do {
      try write(tablet: tablet)
      self.tablet = tablet
      failing = false
    } catch {
      if !failing { Log.warning("\(error)") }
      failing = true
    }
  }

  /// The device's node, e.g. `/dev/input/event21`, when the kernel says where it is.
  private var devnode: String? { libevdev_uinput_get_devnode(device).map { String(cString: $0) } }

  /// Makes the uinput device; throws, with a message naming /dev/uinput, when uinput is
  /// missing or refuses.
  private static func create() throws(InputError) -> OpaquePointer {
    LibevdevMessages.install()
    guard let template = libevdev_new() else {
      throw InputError("cannot create a libevdev device (out of memory)")
    }
    defer { libevdev_free(template) }
    libevdev_set_name(template, deviceName)
    libevdev_enable_event_type(template, UInt32(EV_SW))
    libevdev_enable_event_code(template, UInt32(EV_SW), UInt32(SW_TABLET_MODE), nil)
    var created: OpaquePointer?
    let result = libevdev_uinput_create_from_device(template, LIBEVDEV_UINPUT_OPEN_MANAGED.rawValue, &created)
    guard result >= 0, let device = created else {
      let code = -result
      let why =
        switch code {
        case ENOENT: "/dev/uinput does not exist (is the uinput module loaded?)"
        // libevdev's answer when the device made cannot be found in sysfs.
        case ENODEV: "the device /dev/uinput made cannot be found in /sys/devices/virtual/input"
        default: "/dev/uinput: \(Errno(rawValue: code))"
        }
      throw InputError("cannot create a virtual tablet-mode switch: \(why)", code: Errno(rawValue: code))
    }
    return device
  }

  private func write(tablet: Bool) throws(InputError) {
    let switched = libevdev_uinput_write_event(device, UInt32(EV_SW), UInt32(SW_TABLET_MODE), tablet ? 1 : 0)
    let result =
      switched < 0 ? switched : libevdev_uinput_write_event(device, UInt32(EV_SYN), UInt32(SYN_REPORT), 0)
    guard result >= 0 else {
      throw InputError(
        "cannot write to the virtual tablet-mode switch: \(Errno(rawValue: -result))",
        code: Errno(rawValue: -result))
    }
  }
}
