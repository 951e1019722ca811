/// What discovery saw of one device that may carry readings: an IIO device, a hwmon device
/// with a `light` file, or an evdev device with a front proximity switch. The shell gathers
/// these (libiio, libudev, libevdev); `SensorInventory` decides what each is.
package struct SensorDeviceFacts: Equatable, Sendable {
  /// Where the device is.
  package enum Source: Equatable, Hashable, Sendable {
    /// An IIO device: its id (`iio:device3`) and name (`als`).
    case iio(id: String, name: String)
    /// A hwmon device with Apple's `light` file: the file's path and the device's name.
    case hwmon(lightFile: String, name: String)
    /// An evdev device with `SW_FRONT_PROXIMITY`: its node and name.
    case input(devnode: String, name: String)
  }

  package var source: Source
  /// The IIO device's attribute files (`in_illuminance_raw`, `in_proximity_nearlevel`, ...).
  package var files: Set<String> = []
  /// The IIO device's channels that are scan elements, by id (`intensity_both`).
  package var scanElements: Set<String> = []
  /// The trigger of the device's own (`als-dev3`: the HID sensor hub's name and number) when
  /// the context has it.
  package var ownTrigger: String?
  /// udev's `PROXIMITY_NEAR_LEVEL` (systemd's hwdb), if set.
  package var nearLevelProperty: String?
  /// sysfs `in_proximity_nearlevel`, if the driver gives it.
  package var nearLevelAttribute: String?
  /// sysfs `in_angl0_label` of a device named `hinge`, if the driver gives it.
  package var angleLabel: String?

  package init(source: Source) { self.source = source }

  /// The device in log lines: `iio:device3 (als)`, `/dev/input/event5 (Proximity)`.
  package var label: String {
    switch source {
    case .iio(let id, let name): name.isEmpty ? id : "\(id) (\(name))"
    case .hwmon(let file, let name): name.isEmpty ? file : "\(file) (\(name))"
    case .input(let node, let name): name.isEmpty ? node : "\(node) (\(name))"
    }
  }
}

/// How a reading sensor is read: the ways its device offers, of which the driver takes the
/// buffer where it may (`ReadingCapture`), else the poll.
package struct ReadingPlan: Equatable, Sendable {
  /// A file to poll, with its scale and offset prefix.
  package var poll: ReadingChannels.Polled?
  /// A scan channel and the trigger that fills the buffer.
  package var scan: (channel: String, trigger: String)? {
    get { scanChannel.flatMap { channel in scanTrigger.map { (channel, $0) } } }
    set {
      scanChannel = newValue?.channel
      scanTrigger = newValue?.trigger
    }
  }
  private var scanChannel: String?
  private var scanTrigger: String?
  /// Apple's light file, read through hwmon.
  package var hwmonFile: String?
  /// The evdev node of a front proximity switch.
  package var switchNode: String?
  /// How proximity readings are told apart.
  package var proximity: ProximityDetector.Rule?

  package init() {}

  /// The ways it is read, for `--list` and `info`: `buffer intensity_both (trigger als-dev3),
  /// poll in_illuminance_raw`.
  package var description: String {
    var ways: [String] = []
    if let (channel, trigger) = scan { ways.append("buffer \(channel) (trigger \(trigger))") }
    if let poll { ways.append("poll \(poll.file)") }
    if let hwmonFile { ways.append("poll \(hwmonFile)") }
    if let switchNode { ways.append("SW_FRONT_PROXIMITY events on \(switchNode)") }
    switch proximity {
    case .nearLevel(let level)?: ways.append("near above \(DecimalFormatting.trimmed(level, decimals: 3))")
    case .presence?: ways.append("near while someone is present (human presence)")
    case nil: break
    }
    return ways.joined(separator: ", ")
  }
}

/// One kind of sensor found on one device, and whether it can be read.
package struct SensorFinding: Equatable, Sendable {
  package var kind: SensorKind
  package var device: SensorDeviceFacts
  /// How it is read; nil when it cannot be.
  package var plan: ReadingPlan?
  /// Why it cannot be read, when it cannot.
  package var problem: String?
  /// Whether it is the one of its kind that orientd reads: the first usable one.
  package var chosen = false
}

/// Decides which of the devices found carry light, proximity and heading readings, how each
/// is read, and which one of each kind orientd reads, as iio-sensor-proxy's udev rule and
/// drivers recognise them; and which is a hinge sensor (the kernel's Intel hinge driver, an
/// IIO device named `hinge`). Pure: the shell hands over what it saw.
package enum SensorInventory {
  /// Every kind each device carries, in the devices' order, with the first usable one of
  /// each kind chosen.
  package static func findings(_ devices: [SensorDeviceFacts]) -> [SensorFinding] {
    var findings = devices.flatMap(findings(of:))
    var taken: Set<SensorKind> = []
    for index in findings.indices where findings[index].plan != nil {
      findings[index].chosen = taken.insert(findings[index].kind).inserted
    }
    return findings
  }

  /// The chosen finding of each kind.
  package static func chosen(_ findings: [SensorFinding]) -> [SensorKind: SensorFinding] {
    Dictionary(findings.filter(\.chosen).map { ($0.kind, $0) }, uniquingKeysWith: { first, _ in first })
  }

  private static func findings(of device: SensorDeviceFacts) -> [SensorFinding] {
    switch device.source {
    case .hwmon(let file, _):
      var plan = ReadingPlan()
      plan.hwmonFile = file
      return [SensorFinding(kind: .light, device: device, plan: plan)]
    case .input(let node, _):
      var plan = ReadingPlan()
      plan.switchNode = node
      plan.proximity = .presence
      return [SensorFinding(kind: .proximity, device: device, plan: plan)]
    case .iio(_, let name):
      var found = SensorKind.valueKinds.compactMap { kind in iioFinding(kind, device, name: name) }
      // A magnetometer that gives no heading is said, not passed over in silence: a compass
      // needs the tilt-compensated heading its driver works out (HID `magn_3d`).
      if !found.contains(where: { $0.kind == .compass }),
        device.files.contains("in_magn_x_raw") || device.scanElements.contains("magn_x")
      {
        var finding = SensorFinding(kind: .compass, device: device)
        finding.problem =
          "a magnetometer without a tilt-compensated heading (in_rot_from_north_magnetic_tilt_comp): "
          + "orientd does not work a heading out of raw magnetic fields"
        found.append(finding)
      }
      return found
    }
  }

  private static func iioFinding(_ kind: SensorKind, _ device: SensorDeviceFacts, name: String)
    -> SensorFinding?
  {
    // An angle channel is a hinge only on the hinge driver's device: other IIO devices have
    // angles too (resolvers, inclinometers), none of them a convertible's hinge.
    if kind == .hinge, name != ReadingChannels.hingeDeviceName { return nil }
    let poll = ReadingChannels.polled(kind).first { device.files.contains($0.file) }
    let scanChannel = ReadingChannels.scanned(kind).first { device.scanElements.contains($0) }
    guard poll != nil || scanChannel != nil else { return nil }
    var plan = ReadingPlan()
    plan.poll = poll
    if let scanChannel, let trigger = device.ownTrigger { plan.scan = (scanChannel, trigger) }
    var finding = SensorFinding(kind: kind, device: device)
    guard poll != nil || plan.scan != nil else {
      finding.problem =
        "its \(scanChannel ?? "") scan element has no trigger of its own (\(name)-devN) and no attribute to poll"
      return finding
    }
    if kind == .hinge, let label = device.angleLabel, label.trimmingSpaces != "hinge" {
      finding.problem =
        "its in_angl0 is labelled '\(String(label.trimmingSpaces.prefix(64)).escapingControlCharacters)', not 'hinge': "
        + "not the layout of the Intel hinge driver"
      return finding
    }
    if kind == .proximity {
      switch proximityRule(device, name: name) {
      case .success(let rule): plan.proximity = rule
      case .failure(let error):
        finding.problem = error.message
        return finding
      }
    }
    finding.plan = plan
    return finding
  }

  /// A HID human presence sensor (`prox`) reads 0 or 1; any other proximity sensor needs a
  /// near level: udev's `PROXIMITY_NEAR_LEVEL` first, then sysfs `in_proximity_nearlevel`.
  private static func proximityRule(_ device: SensorDeviceFacts, name: String)
    -> Result<ProximityDetector.Rule, ValueError>
  {
    let property = ProximityDetector.nearLevel(device.nearLevelProperty, source: "udev PROXIMITY_NEAR_LEVEL")
    let attribute = ProximityDetector.nearLevel(device.nearLevelAttribute, source: "in_proximity_nearlevel")
    switch (property, attribute) {
    case (.failure(let error), _): return .failure(error)
    case (.success(let level?), _): return .success(.nearLevel(level))
    case (.success(nil), .failure(let error)): return .failure(error)
    case (.success(nil), .success(let level?)): return .success(.nearLevel(level))
    case (.success(nil), .success(nil)):
      if name == "prox" { return .success(.presence) }
      return .failure(
        ValueError(
          "no near level: neither udev PROXIMITY_NEAR_LEVEL (systemd's hwdb) nor in_proximity_nearlevel "
            + "says from which reading on something is near"))
    }
  }
}

/// How a reading sensor is read now: its buffer where the plan has one and buffers may be
/// taken, else the poll. A buffer is not taken while another daemon (iio-sensor-proxy) owns
/// `net.hadess.SensorProxy`: an IIO device has one buffer, and the owner needs it for the
/// clients it serves. Polling sysfs takes nothing from anyone.
package enum ReadingCapture: Equatable, Sendable {
  case buffer(channel: String, trigger: String)
  case poll(ReadingChannels.Polled)
  case hwmon(file: String)
  case inputSwitch(devnode: String)

  /// The way to read `plan` now, or nil with nothing allowed.
  package static func choose(_ plan: ReadingPlan, buffersAllowed: Bool) -> ReadingCapture? {
    if let node = plan.switchNode { return .inputSwitch(devnode: node) }
    if let file = plan.hwmonFile { return .hwmon(file: file) }
    if buffersAllowed, let (channel, trigger) = plan.scan {
      return .buffer(channel: channel, trigger: trigger)
    }
    return plan.poll.map { .poll($0) }
  }
}
