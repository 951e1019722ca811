import OrientCore
import OrientIIO
import OrientInput
import OrientSystem

/// The light sensor, the proximity sensor, the compass and the hinge sensor on the sampling
/// thread: finds them
/// (`SensorInventory` over what libiio, udev and libevdev show), opens a driver for the one of
/// each kind it reads, tells each driver whether it is needed (the daemon decides), and
/// follows hot-plug through udev's events. Nothing is polled while nothing changes: a sensor
/// comes or goes with a udev event, not a look every second.
///
/// A driver is set up the way its device allows: a buffer where it has one with its own
/// trigger (and may take it: `--mode poll`, or another daemon owning `net.hadess.SensorProxy`,
/// rule it out), else a poll; a buffer that cannot be opened falls back to the poll. A device
/// that fails is let go and looked for again, further apart each time it fails again.
///
/// Why this type has over 12 stored properties: it is the shell of every reading sensor at
/// once (discovery, hot-plug, the look timer and its back-off, the open drivers and what is
/// needed of them); what each is and how it is read is `SensorInventory`'s decision.
final class ReadingSensors {
  /// What the component is given once.
  struct Settings: Sendable {
    /// The libiio context URI; nil is the local one (the only one with hwmon, input and udev).
    var uri: String?
    /// `--mode`: poll rules buffers out.
    var mode: CapturePlan.Mode
  }

  /// One kind's driver and what it was opened for.
  private struct Open {
    var finding: SensorFinding
    var capture: ReadingCapture
    var driver: any SensorDriver
  }

  private let settings: Settings
  private let loop: EventLoop
  private let report: (ReadingReport) -> Void
  private var open: [SensorKind: Open] = [:]
  private var needed: Set<SensorKind> = []
  private var buffersAllowed = true
  private var monitor: (UdevEventMonitor, Watch)?
  private var lookTimer: LoopTimer?
  private var failures = RetrySchedule()
  /// What the last look found, to say only what changed.
  private var lastFindings: [SensorFinding]?
  /// Why the last look could not open the IIO context, to say it once rather than at every look.
  private var lastContextProblem: String?

  init(settings: Settings, loop: EventLoop, report: @escaping (ReadingReport) -> Void) {
    self.settings = settings
    self.loop = loop
    self.report = report
  }

  /// Looks for the sensors and follows hot-plug.
  func start() {
    if settings.uri == nil, let monitor = UdevEventMonitor(subsystems: ["iio", "hwmon", "input"]) {
      do {
        let watch = try loop.watch(monitor.descriptor, handler: { [unowned self] _ in self.hotplug() })
        self.monitor = (monitor, watch)
      } catch {
        Log.warning(
          "light, proximity and compass sensors: cannot watch udev for hot-plug (\(error)); "
            + "a sensor added or removed is seen only at the next look")
      }
    }
    look()
  }

  /// Stops every driver and puts the devices back.
  func stop() {
    for kind in Array(open.keys) { close(kind) }
    if let (_, watch) = monitor { loop.unwatch(watch) }
    monitor = nil
    lookTimer = nil
  }

  /// Reads exactly the sensors in `kinds` from now on.
  func setNeeded(_ kinds: Set<SensorKind>) {
    needed = kinds
    for (kind, entry) in open { entry.driver.setNeeded(kinds.contains(kind)) }
  }

  /// Whether a buffer may be taken; drivers whose way of reading changes are set up again.
  func setBuffersAllowed(_ allowed: Bool) {
    guard allowed != buffersAllowed else { return }
    buffersAllowed = allowed
    for (kind, entry) in open where capture(for: entry.finding) != entry.capture {
      close(kind)
      openDriver(entry.finding)
    }
    sendInventory()
  }

  private var mayBuffer: Bool { buffersAllowed && settings.mode != .poll }

  private func capture(for finding: SensorFinding) -> ReadingCapture? {
    finding.plan.flatMap { ReadingCapture.choose($0, buffersAllowed: mayBuffer) }
  }

  // MARK: Looking

  private func hotplug() {
    guard let (monitor, _) = monitor else { return }
    let events = monitor.receive()
    // An input device comes with every keyboard and mouse: only its evdev node matters.
    if events.contains(where: {
      $0.subsystem != "input" || $0.action == "remove" || $0.syspath.containsBytes("/event")
    }) {
      lookSoon()
    }
  }

  /// The least time between two looks that events asked for: whoever may create devices (a
  /// user with uinput) must not make orientd open an IIO context and every switch at each one.
  static let lookSpacing = Duration.seconds(1)
  /// A device's events come in a burst: one look for all of them.
  static let lookDelay = Duration.milliseconds(100)
  private var lastLook: MonotonicInstant?

  /// Looks again shortly, once for a burst of events, and no sooner than `lookSpacing` after
  /// the last look.
  private func lookSoon() {
    guard lookTimer == nil else { return }
    var due = MonotonicInstant.now + Self.lookDelay
    if let lastLook, lastLook + Self.lookSpacing > due { due = lastLook + Self.lookSpacing }
    let timer = LoopTimer(loop: loop) { [unowned self] _ in self.look() }
    timer.schedule(at: due)
    lookTimer = timer
  }

  /// Finds what is there now, and opens, keeps or closes a driver for each kind.
  private func look() {
    lookTimer = nil
    lastLook = .now
    var found: [ReadingDiscovery.Found] = []
    var context: IIOContext?
    if settings.uri != nil || FileSystem.exists("/sys/bus/iio/devices") {
      do {
        context = try IIOContext.open(uri: settings.uri)
        lastContextProblem = nil
      } catch {
        let problem = "\(error)"
        if problem != lastContextProblem {
          Log.warning("light, proximity and compass sensors: cannot open the IIO context: \(problem)")
        }
        lastContextProblem = problem
      }
    }
    if let context {
      if settings.uri != nil { context.setTimeout(.seconds(2)) }
      found = ReadingDiscovery.iioDevices(in: context, udev: context.isLocal ? UdevProperties() : nil)
    }
    var facts = found.map(\.facts)
    if settings.uri == nil {
      facts += ReadingDiscovery.hwmonLightSensors()
      facts += ProximitySwitch.find().map {
        SensorDeviceFacts(source: .input(devnode: $0.devnode, name: $0.name))
      }
    }
    let findings = SensorInventory.findings(facts)
    if findings != lastFindings {
      for finding in findings where finding.problem != nil {
        Log.warning("\(finding.device.label): not used as the \(finding.kind.noun): \(finding.problem ?? "")")
      }
    }
    lastFindings = findings
    let chosen = SensorInventory.chosen(findings)
    devices = Dictionary(found.compactMap { item in item.device.map { (item.facts.source, $0) } }) {
      first, _ in first
    }
    self.context = context
    for kind in SensorKind.valueKinds {
      let finding = chosen[kind]
      if let entry = open[kind], entry.finding == finding { continue }
      if open[kind] != nil { close(kind) }
      if let finding {
        openDriver(finding)
      } else {
        report(.present(kind, false))
      }
    }
    sendInventory()
  }

  /// The IIO devices of the last look, by their facts' source, and their context.
  private var devices: [SensorDeviceFacts.Source: IIODevice] = [:]
  private var context: IIOContext?

  private func sendInventory() {
    report(.inventory(lastFindings ?? [], reading: open.mapValues(\.driver.summary)))
  }

  // MARK: Drivers

  private func openDriver(_ finding: SensorFinding) {
    guard let capture = capture(for: finding), let driver = makeDriver(finding, capture) else {
      return report(.present(finding.kind, false))
    }
    open[finding.kind] = Open(finding: finding, capture: capture, driver: driver)
    Log.info("reading the \(finding.kind.noun) \(finding.device.label): \(driver.summary)")
    report(.present(finding.kind, true))
    driver.setNeeded(needed.contains(finding.kind))
  }

  private func close(_ kind: SensorKind) {
    open.removeValue(forKey: kind)?.driver.close()
  }

  private func makeDriver(_ finding: SensorFinding, _ capture: ReadingCapture) -> (any SensorDriver)? {
    let kind = finding.kind
    let report: (DriverReport) -> Void = { [unowned self] in self.driverReported($0, kind: kind) }
    switch capture {
    case .hwmon(let file):
      return HwmonLightDriver(file: file, loop: loop, report: report)
    case .inputSwitch(let node):
      return InputProximityDriver(devnode: node, loop: loop, report: report)
    case .poll(let polled):
      guard let device = devices[finding.device.source] else { return nil }
      let model = ReadingSetup.model(
        kind, device: device, prefix: polled.prefix, processed: polled.processed,
        rule: finding.plan?.proximity,
        warn: { Log.warning($0) })
      return IIOPollDriver(
        kind: kind, device: device, file: polled.file,
        interval: ReadingSetup.interval(kind, device: device, prefix: polled.prefix), model: model,
        loop: loop,
        report: report)
    case .buffer(let channel, let trigger):
      guard let device = devices[finding.device.source], let context else { return nil }
      let model = ReadingSetup.model(
        kind, device: device, prefix: "in_" + channel, processed: false, rule: finding.plan?.proximity,
        warn: { Log.warning($0) })
      // Read once at start from the raw file of the same channel, where there is one. Whether
      // it is there is asked of the attribute index, not by reading it: a HID sensor's `_raw`
      // read powers the sensor and asks the hub for a report, which no client needed yet.
      let initial = device.has("in_\(channel)_raw") ? "in_\(channel)_raw" : finding.plan?.poll?.file
      return IIOBufferDriver(
        kind: kind, device: device, context: context, channelID: channel, trigger: trigger,
        initialFile: initial,
        model: model, loop: loop, report: report,
        unusable: { [unowned self] reason in self.bufferUnusable(finding, reason) })
    }
  }

  /// A buffer could not be opened: the sensor is polled where it can be, and said lost otherwise.
  private func bufferUnusable(_ finding: SensorFinding, _ reason: String) {
    close(finding.kind)
    guard let polled = finding.plan?.poll else {
      return driverReported(.lost("\(finding.device.label): \(reason)"), kind: finding.kind)
    }
    Log.warning("\(finding.device.label): \(reason); polling \(polled.file) instead")
    guard let driver = makeDriver(finding, .poll(polled)) else { return }
    open[finding.kind] = Open(finding: finding, capture: .poll(polled), driver: driver)
    sendInventory()
    driver.setNeeded(needed.contains(finding.kind))
  }

  private func driverReported(_ driverReport: DriverReport, kind: SensorKind) {
    switch driverReport {
    case .value(let value):
      guard open[kind] != nil else { return }
      failures.reset()
      report(.value(value))
    case .lost(let reason):
      guard open.removeValue(forKey: kind) != nil else { return }
      Log.warning("the \(kind.noun) went away: \(reason)")
      report(.present(kind, false))
      sendInventory()
      // Looked for again by the next udev event, or after a while in any case.
      let delay = failures.delayAfterFailure()
      let timer = lookTimer ?? LoopTimer(loop: loop) { [unowned self] _ in self.look() }
      timer.schedule(after: delay)
      lookTimer = timer
    }
  }
}
