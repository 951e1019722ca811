import Testing

@testable import OrientCore

/// An IIO device with these files and scan elements.
private func iio(
  _ id: String, _ name: String, files: Set<String> = [], scan: Set<String> = [], trigger: String? = nil,
  property: String? = nil, attribute: String? = nil
) -> SensorDeviceFacts {
  var facts = SensorDeviceFacts(source: .iio(id: id, name: name))
  facts.files = files
  facts.scanElements = scan
  facts.ownTrigger = trigger
  facts.nearLevelProperty = property
  facts.nearLevelAttribute = attribute
  return facts
}

private func polled(_ prefix: String, processed: Bool) -> ReadingChannels.Polled {
  ReadingChannels.Polled(file: prefix + (processed ? "_input" : "_raw"), prefix: prefix, processed: processed)
}

/// The only finding of `devices`.
private func only(_ devices: SensorDeviceFacts...) throws -> SensorFinding {
  let findings = SensorInventory.findings(devices)
  try #require(findings.count == 1, "findings: \(findings)")
  return findings[0]
}

@Suite("Which devices carry light, proximity and heading readings, and how each is read")
struct SensorInventoryTests {
  @Test("Light: a processed value is preferred over a raw one")
  func lightProcessedFirst() throws {
    let finding = try only(
      iio("iio:device1", "acpi-als", files: ["in_illuminance_raw", "in_illuminance_input"]))
    #expect(finding.kind == .light)
    #expect(finding.plan?.poll == polled("in_illuminance", processed: true))
    #expect(finding.problem == nil)
    #expect(finding.chosen)
  }

  @Test("Light: the HID hub's in_intensity_both_raw alone is polled")
  func lightHID() throws {
    let finding = try only(iio("iio:device3", "als", files: ["in_intensity_both_raw", "in_intensity_scale"]))
    #expect(finding.plan?.poll == polled("in_intensity_both", processed: false))
    #expect(finding.plan?.scan == nil)
  }

  @Test("A buffer plan only with the device's own trigger")
  func bufferNeedsOwnTrigger() throws {
    let withTrigger = try only(
      iio(
        "iio:device3", "als", files: ["in_intensity_both_raw"], scan: ["intensity_both"], trigger: "als-dev3")
    )
    #expect(withTrigger.plan?.scan?.channel == "intensity_both")
    #expect(withTrigger.plan?.scan?.trigger == "als-dev3")
    #expect(
      withTrigger.plan?.poll == polled("in_intensity_both", processed: false),
      "the poll stays as the fallback")
    let without = try only(
      iio("iio:device3", "als", files: ["in_intensity_both_raw"], scan: ["intensity_both"]))
    #expect(without.plan?.scan == nil)
    #expect(without.plan?.poll == polled("in_intensity_both", processed: false))
    #expect(without.chosen)
  }

  @Test("The HID hub's scan channel is preferred to illuminance")
  func scanOrder() throws {
    let finding = try only(
      iio("iio:device3", "als", scan: ["illuminance", "intensity_both"], trigger: "als-dev3"))
    #expect(finding.plan?.scan?.channel == "intensity_both")
    #expect(finding.plan?.poll == nil)
  }

  @Test("A scan element with neither its own trigger nor a file to poll is a finding with a problem")
  func scanWithoutTrigger() throws {
    let finding = try only(iio("iio:device3", "als", scan: ["intensity_both"]))
    #expect(finding.kind == .light)
    #expect(finding.plan == nil)
    #expect(!finding.chosen)
    #expect(
      finding.problem
        == "its intensity_both scan element has no trigger of its own (als-devN) and no attribute to poll")
  }

  @Test("A device with none of the files or scan elements carries no reading")
  func nothing() {
    #expect(SensorInventory.findings([iio("iio:device0", "accel_3d", files: ["in_accel_x_raw"])]).isEmpty)
    #expect(SensorInventory.findings([]).isEmpty)
  }

  @Test("Proximity: the udev near level first, then the sysfs attribute")
  func proximityNearLevel() throws {
    let files: Set<String> = ["in_proximity_raw"]
    let both = try only(iio("iio:device2", "vcnl4000", files: files, property: "128", attribute: "200"))
    #expect(both.kind == .proximity)
    #expect(both.plan?.proximity == .nearLevel(128))
    #expect(both.plan?.poll == polled("in_proximity", processed: false))
    let attribute = try only(iio("iio:device2", "vcnl4000", files: files, attribute: "200"))
    #expect(attribute.plan?.proximity == .nearLevel(200))
    let zeroProperty = try only(iio("iio:device2", "vcnl4000", files: files, property: "0", attribute: "200"))
    #expect(zeroProperty.plan?.proximity == .nearLevel(200), "0 is no near level, as in iio-sensor-proxy")
  }

  @Test("Proximity: a near level that is not a number is a problem naming where it came from")
  func proximityBadNearLevel() throws {
    let files: Set<String> = ["in_proximity_raw"]
    let property = try only(iio("iio:device2", "vcnl4000", files: files, property: "near", attribute: "200"))
    #expect(property.plan == nil)
    #expect(property.problem == "udev PROXIMITY_NEAR_LEVEL 'near' is not a number")
    let attribute = try only(iio("iio:device2", "vcnl4000", files: files, attribute: "-5"))
    #expect(attribute.plan == nil)
    #expect(attribute.problem == "in_proximity_nearlevel -5 is below 0")
  }

  @Test("Proximity: a sensor with no near level is a finding with a problem and no plan")
  func proximityWithoutNearLevel() throws {
    let finding = try only(iio("iio:device2", "vcnl4000", files: ["in_proximity_raw"]))
    #expect(finding.kind == .proximity)
    #expect(finding.plan == nil)
    #expect(!finding.chosen)
    #expect(finding.problem?.contains("PROXIMITY_NEAR_LEVEL") == true)
    #expect(finding.problem?.contains("in_proximity_nearlevel") == true)
  }

  @Test("Proximity: the HID hub's human presence sensor (prox) needs no near level")
  func humanPresence() throws {
    let finding = try only(iio("iio:device4", "prox", files: ["in_proximity0_raw"], scan: ["proximity0"]))
    #expect(finding.plan?.proximity == .presence)
    #expect(finding.plan?.poll == polled("in_proximity0", processed: false))
    let levelled = try only(iio("iio:device4", "prox", files: ["in_proximity_raw"], property: "1"))
    #expect(levelled.plan?.proximity == .nearLevel(1), "a near level given is used")
  }

  @Test("Compass: by the tilt-compensated heading's scan element or its raw file")
  func compass() throws {
    let scanned = try only(
      iio("iio:device5", "magn_3d", scan: ["rot_from_north_magnetic_tilt_comp"], trigger: "magn_3d-dev5"))
    #expect(scanned.kind == .compass)
    #expect(scanned.plan?.scan?.channel == "rot_from_north_magnetic_tilt_comp")
    #expect(scanned.plan?.scan?.trigger == "magn_3d-dev5")
    let polledOnly = try only(
      iio("iio:device5", "magn_3d", files: ["in_rot_from_north_magnetic_tilt_comp_raw"]))
    #expect(polledOnly.plan?.poll == polled("in_rot_from_north_magnetic_tilt_comp", processed: false))
    #expect(polledOnly.plan?.proximity == nil)
  }

  @Test("One device may carry several kinds, found in the order light, proximity, compass")
  func severalKinds() {
    let findings = SensorInventory.findings([
      iio(
        "iio:device2", "vcnl4000",
        files: ["in_proximity_raw", "in_illuminance_raw", "in_proximity_nearlevel"],
        attribute: "150")
    ])
    #expect(findings.map(\.kind) == [.light, .proximity])
    #expect(findings.allSatisfy { $0.chosen })
    #expect(findings[1].plan?.proximity == .nearLevel(150))
  }

  @Test("hwmon is light, read from its file")
  func hwmon() throws {
    let finding = try only(
      SensorDeviceFacts(source: .hwmon(lightFile: "/sys/class/hwmon/hwmon2/light", name: "applesmc")))
    #expect(finding.kind == .light)
    #expect(finding.plan?.hwmonFile == "/sys/class/hwmon/hwmon2/light")
    #expect(finding.plan?.poll == nil && finding.plan?.scan == nil)
    #expect(finding.chosen)
  }

  @Test("An input switch is proximity, near while the switch says so")
  func inputSwitch() throws {
    let finding = try only(SensorDeviceFacts(source: .input(devnode: "/dev/input/event5", name: "Proximity")))
    #expect(finding.kind == .proximity)
    #expect(finding.plan?.switchNode == "/dev/input/event5")
    #expect(finding.plan?.proximity == .presence)
    #expect(finding.chosen)
  }

  @Test("The first usable finding of each kind is chosen, later ones are not")
  func firstUsableChosen() {
    let findings = SensorInventory.findings([
      iio("iio:device1", "vcnl4000", files: ["in_proximity_raw"]),  // no near level: unusable
      iio("iio:device2", "als", files: ["in_illuminance_raw"]),
      SensorDeviceFacts(source: .hwmon(lightFile: "/sys/class/hwmon/hwmon0/light", name: "applesmc")),
      SensorDeviceFacts(source: .input(devnode: "/dev/input/event5", name: "Proximity")),
      iio("iio:device3", "prox", files: ["in_proximity_raw"]),
    ])
    #expect(findings.map(\.kind) == [.proximity, .light, .light, .proximity, .proximity])
    #expect(findings.map(\.chosen) == [false, true, false, true, false])
    let chosen = SensorInventory.chosen(findings)
    #expect(chosen.count == 2)
    #expect(chosen[.light]?.device.source == .iio(id: "iio:device2", name: "als"))
    #expect(chosen[.proximity]?.device.source == .input(devnode: "/dev/input/event5", name: "Proximity"))
    #expect(chosen[.compass] == nil)
  }

  @Test("A device's label names it and its name, or just the one without a name")
  func labels() {
    #expect(iio("iio:device3", "als").label == "iio:device3 (als)")
    #expect(iio("iio:device3", "").label == "iio:device3")
    #expect(
      SensorDeviceFacts(source: .input(devnode: "/dev/input/event5", name: "Proximity")).label
        == "/dev/input/event5 (Proximity)")
    #expect(SensorDeviceFacts(source: .hwmon(lightFile: "/sys/x/light", name: "")).label == "/sys/x/light")
  }

  @Test("A plan describes its ways for --list and info")
  func planDescription() throws {
    let hid = try only(
      iio("iio:device3", "als", files: ["in_illuminance_raw"], scan: ["intensity_both"], trigger: "als-dev3"))
    #expect(hid.plan?.description == "buffer intensity_both (trigger als-dev3), poll in_illuminance_raw")
    let prox = try only(iio("iio:device2", "vcnl4000", files: ["in_proximity_raw"], property: "12.25"))
    #expect(prox.plan?.description == "poll in_proximity_raw, near above 12.25")
    let human = try only(iio("iio:device4", "prox", files: ["in_proximity_raw"]))
    #expect(
      human.plan?.description == "poll in_proximity_raw, near while someone is present (human presence)")
    let input = try only(SensorDeviceFacts(source: .input(devnode: "/dev/input/event5", name: "")))
    #expect(input.plan?.description.hasPrefix("SW_FRONT_PROXIMITY events on /dev/input/event5") == true)
  }

  @Test("The buffer is taken only when buffers are allowed; else the poll, else nothing")
  func captureChoice() {
    var plan = ReadingPlan()
    plan.poll = polled("in_intensity_both", processed: false)
    plan.scan = ("intensity_both", "als-dev3")
    #expect(
      ReadingCapture.choose(plan, buffersAllowed: true)
        == .buffer(channel: "intensity_both", trigger: "als-dev3"))
    #expect(
      ReadingCapture.choose(plan, buffersAllowed: false)
        == .poll(polled("in_intensity_both", processed: false)))
    var scanOnly = ReadingPlan()
    scanOnly.scan = ("rot_from_north_magnetic_tilt_comp", "magn_3d-dev5")
    #expect(ReadingCapture.choose(scanOnly, buffersAllowed: false) == nil)
    #expect(ReadingCapture.choose(ReadingPlan(), buffersAllowed: true) == nil)
  }

  @Test("hwmon files and input switches are read as they are, whether buffers are allowed or not")
  func captureOthers() {
    var hwmon = ReadingPlan()
    hwmon.hwmonFile = "/sys/class/hwmon/hwmon0/light"
    var input = ReadingPlan()
    input.switchNode = "/dev/input/event5"
    for allowed in [true, false] {
      #expect(
        ReadingCapture.choose(hwmon, buffersAllowed: allowed) == .hwmon(file: "/sys/class/hwmon/hwmon0/light")
      )
      #expect(
        ReadingCapture.choose(input, buffersAllowed: allowed) == .inputSwitch(devnode: "/dev/input/event5"))
    }
  }

  @Test("Setting a plan's scan to nil clears both channel and trigger")
  func clearScan() {
    var plan = ReadingPlan()
    plan.scan = ("proximity", "prox-dev4")
    #expect(plan != ReadingPlan())
    plan.scan = nil
    #expect(plan.scan == nil)
    #expect(plan == ReadingPlan())
  }
}
