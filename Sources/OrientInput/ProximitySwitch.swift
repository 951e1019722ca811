import OrientSystem

/// An evdev device's front proximity switch (`SW_FRONT_PROXIMITY`), read through libevdev:
/// near while the switch is on. Its events wake the loop that watches `descriptor`; nothing is
/// polled.
package final class ProximitySwitch {
  private let device: SwitchDevice

  /// Input devices with switches looked at, at most: machines have one or two, and whoever may
  /// create input devices (uinput) must not make orientd open thousands.
  static let maximumCandidates = 16

  /// The input devices with a front proximity switch now: their node and name.
  ///
  /// Nothing here is logged, as the daemon asks at every look for sensors: without udev there
  /// is no switch to find (the daemon's tablet-mode switch watcher warns of it), and a
  /// candidate that cannot be opened, or has no proximity switch, is simply not one.
  package static func find() -> [(devnode: String, name: String)] {
    guard let discovery = try? SwitchDiscovery() else { return [] }
    return discovery.candidates().prefix(maximumCandidates).compactMap { candidate in
      guard let device = try? SwitchDevice.open(candidate, wanted: [.frontProximity]) else { return nil }
      return (device.devnode, device.name)
    }
  }

  /// Opens the device at `devnode`; throws when it cannot be opened, or has no such switch.
  package init(devnode: String) throws(InputError) {
    let candidate = SwitchCandidate(syspath: "", devnode: devnode)
    guard let device = try SwitchDevice.open(candidate, wanted: [.frontProximity]) else {
      throw InputError("\(devnode) has no SW_FRONT_PROXIMITY switch")
    }
    self.device = device
  }

  /// The descriptor to watch for readability.
  package var descriptor: Int32 { device.descriptor }

  /// The device for log lines.
  package var label: String { device.label }

  /// Whether something is near, as the switch says now.
  package var isNear: Bool { device.state(.frontProximity) == true }

  /// What became of the device after reading its events.
  package enum Drained: Equatable, Sendable {
    /// Read; the switch may have moved.
    case read
    /// The device is gone.
    case gone
    /// Reading failed: the message says why.
    case failed(String)
  }

  /// Reads the events waiting.
  package func drain() -> Drained {
    switch device.drain() {
    case .read: .read
    case .gone: .gone
    case .failed(let error): .failed("\(error)")
    }
  }
}
