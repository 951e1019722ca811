import OrientCore
import OrientSystem

/// Follows the machine's tablet-mode and lid switches on the main loop: finds them through
/// udev, reads their state and events through libevdev, and follows hot-plug through udev's
/// events. It only reports what the switches say; what the mode is follows from that
/// elsewhere. Nothing is polled: with no event, the loop is not woken.
///
/// Several devices may have the same switch (intel-hid and intel-vbtn both report
/// `SW_TABLET_MODE` on some machines): any of them on means on. A device that fails is
/// logged, naming it, and dropped; its switches then read nil unless another device has them.
package final class TabletSwitchWatcher {
  private let loop: EventLoop
  private let onChange: (SwitchReadings) -> Void
  /// Where the switches are found: udev and libevdev, or a test's script.
  private let system: () throws(InputError) -> any SwitchSystem
  private var discovery: (any SwitchSystem)?
  private var monitor: (any SwitchHotplugSource)?
  private var monitorWatch: Watch?
  /// The devices being read, in the order they were found.
  private var devices: [(device: any SwitchReader, watch: Watch)] = []
  private var reported: SwitchReadings?
  /// Devices read at most. Machines have one or two; whoever may create input devices
  /// (uinput) must not make orientd hold a descriptor for each of thousands.
  static let maximumDevices = 16
  private var tooMany = RateLimitedWarning(period: .seconds(60))

  /// A watcher on `loop` that calls `onChange` with the readings when they change.
  package convenience init(loop: EventLoop, onChange: @escaping (SwitchReadings) -> Void) {
    self.init(loop: loop, system: { () throws(InputError) in try SwitchDiscovery() }, onChange: onChange)
  }

  /// A watcher that finds its switches through `system`.
  init(
    loop: EventLoop, system: @escaping () throws(InputError) -> any SwitchSystem,
    onChange: @escaping (SwitchReadings) -> Void
  ) {
    self.loop = loop
    self.system = system
    self.onChange = onChange
  }

  deinit { stop() }

  /// Finds the switches present, reads their state, starts watching them and udev's
  /// events, and reports the initial readings once.
  package func start() {
    guard discovery == nil else { return }
    let discovery: any SwitchSystem
    do {
      discovery = try system()
    } catch {
      Log.warning("tablet-mode switch: \(error); reading no switches")
      report()
      return
    }
    self.discovery = discovery
    // The monitor first: a device added while the others are enumerated is then not missed
    // (one found twice is opened once).
    do {
      let monitor = try discovery.hotplugEvents()
      monitorWatch = try loop.watch(monitor.descriptor) { [weak self] _ in self?.hotplugReady() }
      self.monitor = monitor
    } catch {
      Log.warning("tablet-mode switch: \(error); switches plugged in later will not be seen")
    }
    for candidate in discovery.candidates() { add(candidate) }
    report()
  }

  /// Stops watching and closes every device.
  package func stop() {
    for entry in devices { loop.unwatch(entry.watch) }
    devices = []
    if let monitorWatch { loop.unwatch(monitorWatch) }
    monitorWatch = nil
    monitor = nil
    discovery = nil
    reported = nil
  }

  /// The switches read, for `orientctl info`: e.g. `SW_TABLET_MODE on /dev/input/event5
  /// (Intel HID switches)`, several joined with "; " (the first four, then how many more),
  /// or `none`.
  package var summary: String {
    guard !devices.isEmpty else { return "none" }
    let shown = devices.prefix(4).map { entry in
      entry.device.switches.map(\.name).joined(separator: ", ") + " on " + entry.device.label
    }
    let more = devices.count > shown.count ? ["and \(devices.count - shown.count) more"] : []
    return (shown + more).joined(separator: "; ")
  }

  /// The readings from every device held.
  var readings: SwitchReadings {
    SwitchReadings(tablet: combined(.tabletMode), lid: combined(.lid))
  }

  private func combined(_ input: InputSwitch) -> Bool? {
    let states = devices.compactMap { $0.device.state(input) }
    return states.isEmpty ? nil : states.contains(true)
  }

  private func report() {
    let now = readings
    guard now != reported else { return }
    reported = now
    onChange(now)
  }

  private func add(_ candidate: SwitchCandidate) {
    guard !devices.contains(where: { $0.device.syspath == candidate.syspath }) else { return }
    guard devices.count < Self.maximumDevices else {
      tooMany.warn(
        "tablet-mode switch: already reading \(Self.maximumDevices) devices; \(candidate.devnode) is not read"
      )
      return
    }
    guard let discovery else { return }
    let device: any SwitchReader
    do {
      guard let opened = try discovery.open(candidate, wanted: InputSwitch.modeSwitches) else {
        Log.debug("tablet-mode switch: \(candidate.devnode) has neither SW_TABLET_MODE nor SW_LID; ignored")
        return
      }
      device = opened
    } catch {
      Log.warning("tablet-mode switch: \(error); ignoring it")
      return
    }
    // orientd's own virtual switch reports what orientd decided; reading it back would loop.
    if device.name == VirtualTabletSwitch.deviceName, device.syspath.containsBytes("/devices/virtual/") {
      Log.debug("tablet-mode switch: \(device.label) is orientd's own; ignored")
      return
    }
    let syspath = device.syspath
    do {
      let watch = try loop.watch(device.descriptor) { [weak self] events in
        self?.deviceReady(syspath, events)
      }
      devices.append((device, watch))
    } catch {
      Log.warning("tablet-mode switch: cannot watch \(device.label): \(error); ignoring it")
      return
    }
    let states = device.switches.map { "\($0.name) \(device.state($0) == true ? 1 : 0)" }
    Log.info("tablet-mode switch: reading \(device.label): \(states.joined(separator: ", "))")
  }

  /// Stops reading the device at `syspath`, logging `message(label)` at `level`.
  private func remove(_ syspath: String, level: LogLevel, _ message: (String) -> String) {
    guard let index = devices.firstIndex(where: { $0.device.syspath == syspath }) else { return }
    let entry = devices.remove(at: index)
    loop.unwatch(entry.watch)
    Log.write(level, "tablet-mode switch: " + message(entry.device.label))
  }

  private func deviceReady(_ syspath: String, _ events: IOEvents) {
    guard let entry = devices.first(where: { $0.device.syspath == syspath }) else { return }
    switch entry.device.drain() {
    case .read:
      // A hang-up with nothing more to read: the node is gone, and would wake the loop
      // again and again if it stayed watched.
      if !events.isDisjoint(with: [.hangUp, .error]) {
        remove(syspath, level: .warning) { "\($0) hung up; no longer read" }
      }
    case .gone:
      remove(syspath, level: .warning) { "\($0) is gone; no longer read" }
    case .failed(let error):
      remove(syspath, level: .error) { _ in "\(error); no longer read" }
    }
    report()
  }

  private func hotplugReady() {
    guard let monitor else { return }
    for event in monitor.receive() {
      switch event {
      case .added(let candidate): add(candidate)
      case .removed(let syspath): remove(syspath, level: .info) { "\($0) was removed" }
      }
    }
    report()
  }
}
