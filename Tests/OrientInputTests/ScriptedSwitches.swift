import Glibc
import OrientSystem

@testable import OrientInput

/// A pipe whose read end a loop watches: a byte written makes it readable, closing the write
/// end makes it hang up.
final class ReadinessPipe {
  let readEnd: Int32
  private var writeEnd: Int32

  init() {
    var ends: [Int32] = [-1, -1]
    precondition(pipe(&ends) == 0, "pipe failed")
    for end in ends { precondition(fcntl(end, F_SETFL, O_NONBLOCK) == 0, "fcntl failed") }
    (readEnd, writeEnd) = (ends[0], ends[1])
  }

  deinit {
    close(readEnd)
    if writeEnd >= 0 { close(writeEnd) }
  }

  /// Makes the read end readable.
  func ring() {
    var byte: UInt8 = 1
    precondition(write(writeEnd, &byte, 1) == 1, "write to the pipe failed")
  }

  /// Reads whatever is waiting, so that the read end is quiet again.
  func quiet() {
    var bytes = [UInt8](repeating: 0, count: 64)
    while read(readEnd, &bytes, bytes.count) > 0 {}
  }

  /// Closes the write end: the read end hangs up.
  func hangUp() {
    close(writeEnd)
    writeEnd = -1
  }
}

/// A switch device as a test scripts it: its switches' states, and what its next drain finds.
final class ScriptedSwitch: SwitchReader {
  enum Next {
    case set(InputSwitch, Bool)
    case gone
    case fail
  }

  let devnode: String
  let syspath: String
  let name: String
  let switches: [InputSwitch]
  private var states: [InputSwitch: Bool]
  private var queued: [Next] = []
  private let pipe = ReadinessPipe()
  /// How often the watcher drained it.
  private(set) var drains = 0

  init(_ number: Int, name: String, _ states: [InputSwitch: Bool], syspath: String? = nil) {
    devnode = "/dev/input/event\(number)"
    self.syspath = syspath ?? "/sys/devices/platform/test/input/input\(number)/event\(number)"
    self.name = name
    switches = InputSwitch.allCases.filter { states[$0] != nil }
    self.states = states
  }

  var candidate: SwitchCandidate { SwitchCandidate(syspath: syspath, devnode: devnode) }
  var descriptor: Int32 { pipe.readEnd }
  var label: String { "\(devnode) (\(name))" }

  func state(_ input: InputSwitch) -> Bool? { states[input] }

  /// What the next drain finds; the device's descriptor becomes readable.
  func next(_ next: Next) {
    queued.append(next)
    pipe.ring()
  }

  /// The device's node hangs up, with nothing to read.
  func hangUp() { pipe.hangUp() }

  func drain() -> SwitchDrain {
    drains += 1
    pipe.quiet()
    let before = switches.map { states[$0] }
    defer { queued = [] }
    for next in queued {
      switch next {
      case .set(let input, let value): states[input] = value
      case .gone: return .gone
      case .fail: return .failed(InputError("reading the switch device \(label) failed: Input/output error"))
      }
    }
    return .read(changed: switches.map { states[$0] } != before)
  }
}

/// udev and libevdev as a test scripts them: the devices present, those plugged in and out
/// later, and which were opened.
final class ScriptedSwitches: SwitchSystem, SwitchHotplugSource {
  private var present: [ScriptedSwitch]
  private var known: [String: ScriptedSwitch] = [:]
  private var events: [InputHotplugEvent] = []
  private let pipe = ReadinessPipe()
  /// The nodes opened, in order.
  private(set) var opened: [String] = []

  init(_ present: [ScriptedSwitch]) {
    self.present = present
    for device in present { known[device.syspath] = device }
  }

  func candidates() -> [SwitchCandidate] { present.map(\.candidate) }

  func hotplugEvents() throws(InputError) -> any SwitchHotplugSource { self }

  func open(_ candidate: SwitchCandidate, wanted: [InputSwitch]) throws(InputError) -> (any SwitchReader)? {
    guard let device = known[candidate.syspath] else { throw InputError("no device at \(candidate.devnode)") }
    opened.append(candidate.devnode)
    return device.switches.contains(where: wanted.contains) ? device : nil
  }

  var descriptor: Int32 { pipe.readEnd }

  func receive() -> [InputHotplugEvent] {
    pipe.quiet()
    defer { events = [] }
    return events
  }

  /// udev says `device` was added.
  func plug(_ device: ScriptedSwitch) {
    known[device.syspath] = device
    present.append(device)
    events.append(.added(device.candidate))
    pipe.ring()
  }

  /// udev says `device` was removed.
  func unplug(_ device: ScriptedSwitch) {
    present.removeAll { $0 === device }
    events.append(.removed(syspath: device.syspath))
    pipe.ring()
  }
}

/// A watcher on a loop of its own, over scripted switches, with every report it made.
final class WatchedSwitches {
  private final class Reports { var all: [SwitchReadings] = [] }

  let loop: EventLoop
  let system: ScriptedSwitches
  let watcher: TabletSwitchWatcher
  private let reports = Reports()

  /// Starts a watcher over `devices`; with `udevFails`, finding the switches fails at once.
  init(_ devices: [ScriptedSwitch], udevFails: Bool = false) throws {
    loop = try EventLoop()
    let system = ScriptedSwitches(devices)
    self.system = system
    let reports = reports
    watcher = TabletSwitchWatcher(
      loop: loop,
      system: { () throws(InputError) -> any SwitchSystem in
        if udevFails { throw InputError("cannot create a udev context") }
        return system
      }, onChange: { reports.all.append($0) })
    watcher.start()
  }

  /// Every report so far, the initial one first.
  var reported: [SwitchReadings] { reports.all }

  /// Runs one round of the loop. A test calls it just after making a device or udev readable,
  /// so the wait ends at once; the limit only bounds a broken test.
  func runRound() throws { try loop.runRound(waitingAtMost: .seconds(10)) }
}
