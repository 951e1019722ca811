/// An input device that udev says has switches: where it is in sysfs and its /dev node.
struct SwitchCandidate: Equatable, Sendable {
  /// The device's sysfs path, e.g. `/sys/devices/platform/INT33D5:00/input/input7/event5`.
  let syspath: String
  /// Its node, e.g. `/dev/input/event5`.
  let devnode: String

  /// A candidate at `syspath` with node `devnode`.
  init(syspath: String, devnode: String) {
    self.syspath = syspath
    self.devnode = devnode
  }

  /// Whether `devnode` is an evdev node (`/dev/input/eventN`), the only kind libevdev reads.
  static func isEventNode(_ devnode: String) -> Bool {
    let prefix = "/dev/input/event"
    guard devnode.hasPrefix(prefix) else { return false }
    let number = devnode.dropFirst(prefix.count)
    return !number.isEmpty && number.allSatisfy { $0.isASCII && $0.isNumber }
  }
}
