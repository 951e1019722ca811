/// What `TabletSwitchWatcher` needs of the machine: the devices udev says have switches, its
/// hot-plug events, and each device opened and read. `SwitchDiscovery` (udev, and libevdev
/// for each device) is the machine's; tests hand the watcher scripted devices, so that what it
/// decides (any device on means on, a device that fails is dropped, at most 16 are read,
/// orientd's own virtual switch is never read back) runs in the test process.
protocol SwitchSystem: AnyObject {
  /// The switch devices present now.
  func candidates() -> [SwitchCandidate]
  /// Starts listening for devices added and removed.
  func hotplugEvents() throws(InputError) -> any SwitchHotplugSource
  /// Opens `candidate`; nil when it has none of `wanted`.
  func open(_ candidate: SwitchCandidate, wanted: [InputSwitch]) throws(InputError) -> (any SwitchReader)?
}

/// Devices added and removed, ready to be received when `descriptor` is readable.
protocol SwitchHotplugSource: AnyObject {
  var descriptor: Int32 { get }
  /// The events waiting.
  func receive() -> [InputHotplugEvent]
}

/// One open device with switches, ready to be drained when `descriptor` is readable.
protocol SwitchReader: AnyObject {
  /// The sysfs path, which hot-plug removals name.
  var syspath: String { get }
  /// The device's name as the kernel reports it, control characters escaped.
  var name: String { get }
  /// The switches of interest the device has.
  var switches: [InputSwitch] { get }
  var descriptor: Int32 { get }
  /// The device's node and name for log lines.
  var label: String { get }
  /// The state of `input`; nil when the device has no such switch.
  func state(_ input: InputSwitch) -> Bool?
  /// Reads the events waiting.
  func drain() -> SwitchDrain
}

extension SwitchDiscovery: SwitchSystem {
  func hotplugEvents() throws(InputError) -> any SwitchHotplugSource { try InputHotplugMonitor(self) }

  func open(_ candidate: SwitchCandidate, wanted: [InputSwitch]) throws(InputError) -> (any SwitchReader)? {
    try SwitchDevice.open(candidate, wanted: wanted)
  }
}

extension InputHotplugMonitor: SwitchHotplugSource {}
extension SwitchDevice: SwitchReader {}
