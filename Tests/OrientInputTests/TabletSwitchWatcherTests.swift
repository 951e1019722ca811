import Testing

@testable import OrientInput

private func tablet(_ number: Int, _ on: Bool, lid: Bool? = nil, name: String = "Intel Virtual Switches")
  -> ScriptedSwitch
{
  var states: [InputSwitch: Bool] = [.tabletMode: on]
  if let lid { states[.lid] = lid }
  return ScriptedSwitch(number, name: name, states)
}

private func lid(_ number: Int, closed: Bool) -> ScriptedSwitch {
  ScriptedSwitch(number, name: "Lid Switch", [.lid: closed])
}

@Suite("The switch watcher's decisions, over scripted devices in the test process")
struct TabletSwitchWatcherTests {
  @Test("The first report reads every device: any device with its switch on means on")
  func anyDeviceOn() throws {
    let watched = try WatchedSwitches([tablet(5, false), tablet(6, true), lid(1, closed: false)])
    #expect(watched.reported == [SwitchReadings(tablet: true, lid: false)])
    #expect(
      watched.watcher.summary
        == "SW_TABLET_MODE on /dev/input/event5 (Intel Virtual Switches); "
        + "SW_TABLET_MODE on /dev/input/event6 (Intel Virtual Switches); SW_LID on /dev/input/event1 (Lid Switch)"
    )
  }

  @Test("A change is reported only when the combined reading changes")
  func onlyCombinedChanges() throws {
    let first = tablet(5, true)
    let second = tablet(6, true)
    let watched = try WatchedSwitches([first, second])
    first.next(.set(.tabletMode, false))
    try watched.runRound()
    #expect(first.drains == 1, "the device was read")
    #expect(watched.reported == [SwitchReadings(tablet: true)], "the other device still says tablet")
    second.next(.set(.tabletMode, false))
    try watched.runRound()
    #expect(watched.reported == [SwitchReadings(tablet: true), SwitchReadings(tablet: false)])
  }

  @Test(
    "A device that is gone, hangs up or fails is dropped; its switches read nil unless another has them",
    arguments: ["gone", "hang up", "fail"])
  func failingDeviceDropped(how: String) throws {
    let failing = tablet(5, true, lid: true)
    let other = tablet(6, false)
    let watched = try WatchedSwitches([failing, other])
    #expect(watched.reported == [SwitchReadings(tablet: true, lid: true)])
    switch how {
    case "gone": failing.next(.gone)
    case "fail": failing.next(.fail)
    default: failing.hangUp()
    }
    try watched.runRound()
    #expect(watched.reported.last == SwitchReadings(tablet: false, lid: nil))
    #expect(watched.watcher.summary == "SW_TABLET_MODE on /dev/input/event6 (Intel Virtual Switches)")
    // The other device goes on, and the dropped one is read no more.
    let drains = failing.drains
    other.next(.set(.tabletMode, true))
    try watched.runRound()
    #expect(watched.reported.last == SwitchReadings(tablet: true, lid: nil))
    #expect(failing.drains == drains)
  }

  @Test("At most 16 devices are opened and read; the summary names four and counts the rest")
  func boundedDevices() throws {
    let devices = (200..<220).map { tablet($0, $0 == 219) }
    let watched = try WatchedSwitches(devices)
    #expect(watched.system.opened.count == 16)
    #expect(watched.system.opened.last == "/dev/input/event215")
    #expect(watched.reported == [SwitchReadings(tablet: false)], "the 20th, which says tablet, is not read")
    let shown = (200..<204).map { "SW_TABLET_MODE on /dev/input/event\($0) (Intel Virtual Switches)" }
    #expect(watched.watcher.summary == shown.joined(separator: "; ") + "; and 12 more")
  }

  @Test("orientd's own virtual switch is not read back; a hardware switch of the same name is")
  func ownSwitchIgnored() throws {
    let own = ScriptedSwitch(
      30, name: VirtualTabletSwitch.deviceName, [.tabletMode: true],
      syspath: "/sys/devices/virtual/input/input30/event30")
    let watched = try WatchedSwitches([own])
    #expect(watched.system.opened == ["/dev/input/event30"], "the premise: it was found and opened")
    #expect(watched.reported == [SwitchReadings()])
    #expect(watched.watcher.summary == "none")

    let namesake = ScriptedSwitch(31, name: VirtualTabletSwitch.deviceName, [.tabletMode: true])
    let other = try WatchedSwitches([namesake])
    #expect(other.reported == [SwitchReadings(tablet: true)])
  }

  @Test("A device plugged in later is read, once even if udev says so twice; one unplugged is dropped")
  func hotplug() throws {
    let watched = try WatchedSwitches([lid(1, closed: false)])
    #expect(watched.reported == [SwitchReadings(lid: false)])
    let dock = tablet(20, true, name: "Tablet Dock Switch")
    watched.system.plug(dock)
    try watched.runRound()
    #expect(watched.reported.last == SwitchReadings(tablet: true, lid: false))
    watched.system.plug(dock)
    try watched.runRound()
    #expect(watched.system.opened.filter { $0 == dock.devnode }.count == 1)
    #expect(watched.reported.count == 2, "a device found twice changes nothing")
    watched.system.unplug(dock)
    try watched.runRound()
    #expect(watched.reported.last == SwitchReadings(tablet: nil, lid: false))
    #expect(watched.watcher.summary == "SW_LID on /dev/input/event1 (Lid Switch)")
  }

  @Test("A device with neither switch is opened, found wanting and not read")
  func otherSwitchIgnored() throws {
    let jack = ScriptedSwitch(9, name: "Headphone Jack", [.frontProximity: false])
    let watched = try WatchedSwitches([jack, tablet(5, true)])
    #expect(watched.system.opened == ["/dev/input/event9", "/dev/input/event5"])
    #expect(watched.reported == [SwitchReadings(tablet: true)])
    #expect(watched.watcher.summary == "SW_TABLET_MODE on /dev/input/event5 (Intel Virtual Switches)")
  }

  @Test("Without udev no switch is read, and the readings are reported once as none")
  func noUdev() throws {
    let watched = try WatchedSwitches([tablet(5, true)], udevFails: true)
    #expect(watched.reported == [SwitchReadings()])
    #expect(watched.system.opened.isEmpty)
    #expect(watched.watcher.summary == "none")
  }
}
