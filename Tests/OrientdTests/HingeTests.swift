import Foundation
import Testing

/// Checks hinge lines against the thresholds: tablet from 200 degrees, laptop at 160 or less,
/// no change in between, and the unstable ends (under 20, over 340) as the history says.
/// Returns the mode changes, in order.
///
/// A line gives the last angle published, which moves only by 5 degrees: when a poll read the
/// lid between two steps (one axis written, the next not yet) and published an angle near a
/// threshold, the change that the step's own reading makes is logged with that angle. So a
/// change to laptop may show up to 164 degrees, and one to tablet from 196.
@discardableResult
private func checkThresholds(_ lines: [HingeLine], sourceLocation: SourceLocation = #_sourceLocation)
  -> [String]
{
  var mode = "unknown"
  var changes: [String] = []
  for line in lines {
    guard let angle = line.angle else {
      #expect(line.mode == "unknown", "no angle, yet \(line)", sourceLocation: sourceLocation)
      mode = line.mode
      continue
    }
    switch angle {
    case 160, 200:
      // Rounded: 199.6 is published as 200, and is not yet a tablet. Either mode is right.
      #expect(
        ["laptop", "tablet"].contains(line.mode), "\(line) in \(lines)", sourceLocation: sourceLocation)
    case 201...340:
      #expect(line.mode == "tablet", "\(line) in \(lines)", sourceLocation: sourceLocation)
    case 20...159:
      #expect(line.mode == "laptop", "\(line) in \(lines)", sourceLocation: sourceLocation)
    case 161...199:
      // The band: whatever held before holds (a first reading in it decides by 180), except
      // for a change logged with a published angle that lags the reading that made it.
      let lagging =
        (mode == "tablet" && line.mode == "laptop" && angle <= 164)
        || (mode == "laptop" && line.mode == "tablet" && angle >= 196)
      let expected = mode == "unknown" ? (angle < 180 ? "laptop" : "tablet") : lagging ? line.mode : mode
      #expect(
        line.mode == expected, "\(line) flapped in the band after \(mode): \(lines)",
        sourceLocation: sourceLocation)
    default:
      // Closed or folded back, told apart by the last stable angle.
      #expect(line.mode == mode, "\(line) after \(mode): \(lines)", sourceLocation: sourceLocation)
    }
    if line.mode != mode, mode != "unknown" { changes.append("\(line)") }
    mode = line.mode
  }
  return changes
}

@Suite("The hinge angle from a display and a base accelerometer", .scratch)
struct HingeTests {
  @Test(
    "A sweep 0 -> 360 -> 0 changes the mode only at 200 and 160 degrees, with the device flat or turned",
    arguments: ["flat", "turned"])
  func sweep(attitude: String) throws {
    // Turned: the base tilted both about the hinge and across it, gravity well off the hinge.
    let base = attitude == "flat" ? FakeHinge.flat : FakeHinge.direction(0.4, 0.5, -0.77)
    let run = try FakeHinge.start()
    try run.setHinge(90, base: base)
    #expect(run.waitForHinge(90, "laptop"))
    // Closed: under 20 degrees counts once it held 2 s, and the history says closed.
    let logged = { run.hingeLines.last?.angle }
    try run.sweepHinge(stride(from: 80.0, through: 0, by: -10), base: base, latestAngle: logged)
    #expect(run.waitForHinge(0, "laptop"), "\(run.hingeLines)")
    try run.sweepHinge(stride(from: 10.0, through: 360, by: 10), base: base, latestAngle: logged)
    #expect(run.waitForHinge(360, "tablet"), "\(run.hingeLines)")
    try run.sweepHinge(stride(from: 350.0, through: 0, by: -10), base: base, latestAngle: logged)
    let closedAgain = run.waitUntilHinge { lines in
      lines.filter { $0 == HingeLine(angle: 0, mode: "laptop") }.count == 2
    }
    #expect(closedAgain, "\(run.hingeLines)")
    #expect(run.stop() == 0)

    let lines = run.hingeLines
    let changes = checkThresholds(lines)
    #expect(changes.count == 2, "\(changes)")
    // The published angle followed every step of 10 degrees between the unstable ends, in
    // order. Within 5 degrees: a poll may read one axis before a step is written and the next
    // after, and publish a reading between two steps, after which the step's own reading is
    // too close to it to be published again.
    let angles = lines.compactMap(\.angle)
    // 20 and 340 are left out: rounded, they may be just inside the unstable ends.
    let up = Array(stride(from: 30, through: 330, by: 10))
    let sweep = [90] + Array(stride(from: 80, through: 30, by: -10)) + [0] + up + [360] + up.reversed() + [0]
    #expect(follows(angles, sweep), "\(angles)")
  }

  @Test(
    "Clients hear the sweep: mode tablet at 200 degrees, laptop again at 160, and the angle at every step")
  func sweepOnTheSocket() throws {
    let (run, socket) = try servingFakeSensor(
      FakeHinge.devices(opening: 90), extra: ["--interval", "10", "--settle", "50"],
      ready: "info: mode laptop")
    let monitor = try socatClient(socket: socket)
    let heard = { (line: String) in waitUntil { monitor.process.stdoutLines.contains(line) } }
    #expect(heard("hinge 90"), "\(monitor.process.stdout)")
    let heardAngle = {
      monitor.process.stdoutLines.last { $0.hasPrefix("hinge ") }.flatMap {
        Int($0.dropFirst("hinge ".count))
      }
    }
    try run.sweepHinge(stride(from: 100.0, through: 360, by: 10), latestAngle: heardAngle)
    #expect(heard("hinge 360"), "\(monitor.process.stdout)")
    try run.sweepHinge(stride(from: 350.0, through: 0, by: -10), latestAngle: heardAngle)
    #expect(heard("hinge 0"), "\(monitor.process.stdout)")
    let get = { (field: String) in
      try runToCompletion([TestPaths.orientctl, "--socket", socket, "get", field])
    }
    #expect(try get("mode").stdout == "laptop\n")
    #expect(try get("hinge").stdout == "0\n")
    #expect(run.stop() == 0)

    let lines = monitor.process.stdoutLines.filter { $0.hasPrefix("mode ") || $0.hasPrefix("hinge ") }
    #expect(Array(lines.prefix(2)) == ["mode laptop", "hinge 90"], "the greeting: \(lines)")
    let changes = Array(lines.dropFirst(2))
    #expect(changes.filter { $0.hasPrefix("mode ") } == ["mode tablet", "mode laptop"], "\(changes)")
    // A change of mode comes right after the angle that made it.
    for (index, line) in changes.enumerated() where line.hasPrefix("mode ") {
      let angle = index > 0 ? Int(changes[index - 1].dropFirst("hinge ".count)) : nil
      // The published angle may lag the reading that changed the mode by up to 4 degrees.
      let range = line == "mode tablet" ? 196...209 : 151...164
      #expect(
        angle.map(range.contains) == true, "\(line) after \(index > 0 ? changes[index - 1] : "nothing")")
    }
    let angles = changes.compactMap { Int($0.dropFirst("hinge ".count)) }
    let up = Array(stride(from: 100, through: 330, by: 10))
    #expect(follows(angles, up + [360] + Array(stride(from: 330, through: 30, by: -10)) + [0]), "\(angles)")
  }

  @Test("Swinging the lid inside 160-200 degrees never changes the mode, from either side")
  func noFlapInTheBand() throws {
    let run = try FakeHinge.start()
    #expect(run.waitForHinge(90, "laptop"))
    // Judged by the angles set, not by those logged (which move by 5 degrees): a poll that
    // reads the lid between two steps sees an angle between them, so until 200 (and later
    // 160) is set, every reading is in the band or below (above) it.
    for opening in [170.0, 195, 165, 190, 199, 161, 185] { try run.setHinge(opening) }
    let beforeTablet = run.hingeLines.count
    try run.setHinge(200)
    #expect(run.waitUntilHinge { $0.last?.mode == "tablet" }, "\(run.hingeLines)")
    for opening in [190.0, 165, 195, 170, 161, 199, 175] { try run.setHinge(opening) }
    let beforeLaptop = run.hingeLines.count
    try run.setHinge(160)
    #expect(run.waitUntilHinge { $0.last?.mode == "laptop" }, "\(run.hingeLines)")
    #expect(run.stop() == 0)
    let lines = run.hingeLines
    // The modes in turn: laptop, tablet once 200 was set, laptop once 160 was: no flap.
    var modes: [String] = []
    for line in lines where line.mode != "unknown" && line.mode != modes.last { modes.append(line.mode) }
    #expect(modes == ["laptop", "tablet", "laptop"], "\(lines)")
    let firstTablet = lines.firstIndex { $0.mode == "tablet" } ?? -1
    let lastTablet = lines.lastIndex { $0.mode == "tablet" } ?? -1
    #expect(firstTablet >= beforeTablet, "tablet before 200 was set: \(lines)")
    #expect(lastTablet < lines.count - 1 && lastTablet >= beforeLaptop - 1, "\(lines)")
  }

  @Test("A hinge held near vertical, or two sensors whose magnitudes differ, leave the mode alone")
  func verticalAndMoving() throws {
    let run = try FakeHinge.start()
    #expect(run.waitForHinge(90, "laptop"))
    // 0.8 g along the hinge: the angle (250) is noise.
    try run.setHinge(250, base: FakeHinge.direction(0.8, 0, -0.6))
    #expect(
      run.process.waitFor(
        "hinge: readings ignored: the hinge is near vertical (0.80 g along it)", inStderr: true))
    try run.setHinge(250, base: FakeHinge.direction(0.8, 0.1, -0.6))
    #expect(!run.hingeLines.contains { $0.mode == "tablet" }, "\(run.hingeLines)")
    try run.setHinge(250)
    #expect(run.waitForHinge(250, "tablet"))
    // The base reads 1.3 g: the device is being moved. The base first, the lid still at 250:
    // the sensors are polled apart, so a new lid angle read before the base's new reading
    // would pair with the old one, which was still.
    try run.setHinge(250, baseScale: 1.3)
    #expect(
      run.process.waitFor(
        "hinge: readings ignored: the device is moving (magnitudes 1.00 g and 1.30 g)", inStderr: true))
    try run.setHinge(120, baseScale: 1.3)
    try run.setHinge(110, baseScale: 1.3)
    #expect(!run.hingeLines.contains { $0.mode == "laptop" && $0.angle != 90 }, "\(run.hingeLines)")
    try run.setHinge(120)
    #expect(run.waitForHinge(120, "laptop"))
    #expect(run.stop() == 0)
    checkThresholds(run.hingeLines)
  }

  @Test(
    "Closed and folded back read alike: without a history the mode stays unknown, with one the history tells")
  func unstableEnds() throws {
    let run = try FakeHinge.start(opening: 360)
    // More than the 2 s hold, counted in reads of the display sensor every 10 ms.
    #expect(try run.waitForPolls(300, device: FakeHinge.displayIndex))
    #expect(run.hingeLines.allSatisfy { $0.mode == "unknown" && $0.angle == nil }, "\(run.hingeLines)")
    try run.setHinge(300)
    #expect(run.waitForHinge(300, "tablet"))
    try run.setHinge(355)
    #expect(run.waitForHinge(355, "tablet"), "\(run.hingeLines)")
    try run.setHinge(5)
    // Past 360 the sensors read 5 degrees; the history says folded back: 360, still a tablet.
    #expect(run.waitForHinge(360, "tablet"), "\(run.hingeLines)")
    #expect(run.stop() == 0)
    checkThresholds(run.hingeLines)
  }

  @Test(
    "A lid switch tells folded back from closed without history, a closed lid is a laptop whatever the hinge reads, and the sweep down still turns at 160"
  )
  func lidSwitch() throws {
    let run = try FakeInputRun(
      devices: ["lid"], others: FakeHinge.devices(opening: 360),
      program: [TestPaths.orientd] + FakeHinge.arguments)
    try #require(run.logs("hinge: pairing"), "\(run.process.stderr)")
    #expect(run.logs("hinge: the lid switch says open"))
    // The ends read alike and there is no history; the open lid says folded back, once the
    // angle held 2 s.
    #expect(run.waitForHinge(360, "tablet"), "\(run.hingeLines)")
    try run.setHinge(250)
    #expect(run.waitForHinge(250, "tablet"))
    run.send("switch lid lid 1")
    #expect(run.logs("hinge: the lid switch says closed"))
    #expect(run.waitForHinge(250, "laptop"), "\(run.hingeLines)")
    run.send("switch lid lid 0")
    #expect(run.waitUntilHinge { $0.last == HingeLine(angle: 250, mode: "tablet") }, "\(run.hingeLines)")
    let reopened = run.hingeLines.count
    for opening in stride(from: 240.0, through: 170, by: -10) { try run.setHinge(opening) }
    let beforeLaptop = run.hingeLines.count
    for opening in stride(from: 160.0, through: 20, by: -10) { try run.setHinge(opening) }
    // The published angle moves by 5 degrees, and a poll between two steps may publish one
    // between them: within 5 of 20.
    #expect(
      run.waitUntilHinge { $0.last.map { $0.mode == "laptop" && abs(($0.angle ?? 0) - 20) < 5 } == true },
      "\(run.hingeLines)")
    #expect(run.stop() == 0)
    // Tablet until 160 was set (every reading before was at 170 or more), laptop after.
    let lines = Array(run.hingeLines.dropFirst(reopened - 1))
    let firstLaptop = lines.firstIndex { $0.mode == "laptop" } ?? -1
    #expect(firstLaptop >= beforeLaptop - reopened + 1, "laptop before 160 was set: \(lines)")
    #expect(firstLaptop >= 0 && lines[firstLaptop...].allSatisfy { $0.mode == "laptop" }, "\(lines)")
  }

  @Test(
    "The base sensor unplugged: the hinge goes away and the display keeps serving; plugged back, it returns")
  func baseUnplugged() throws {
    let run = try FakeHinge.start()
    try run.setHinge(250)
    #expect(run.waitForHinge(250, "tablet"))
    try run.unplug(device: FakeHinge.baseIndex)
    #expect(
      run.process.waitFor("the base accelerometer iio:device1 (accel_base) went offline", inStderr: true))
    #expect(
      run.waitUntilHinge { $0.last == HingeLine(angle: nil, mode: "unknown", available: false) },
      "\(run.hingeLines)")
    // Orientation goes on from the display sensor.
    try run.setRaw(256, 0, 0, device: FakeHinge.displayIndex)
    #expect(run.process.waitFor("device left-up"), "\(run.process.stdout)")
    try run.plug(device: FakeHinge.baseIndex)
    #expect(run.process.waitFor("hinge: pairing", inStderr: true, count: 2))
    try run.setHinge(240)
    #expect(run.waitUntilHinge { $0.last == HingeLine(angle: 240, mode: "tablet") }, "\(run.hingeLines)")
    #expect(run.stop() == 0)
    let log = run.process.stderr
    #expect(
      log.contains(
        "hinge: the base accelerometer iio:device1 (accel_base) is offline; no hinge until it is back"))
    // The display's readings from before the base came back are not held against it.
    #expect(!log.contains("no usable reading"), "\(log)")
  }

  @Test(
    "Garbage from either sensor: a log line naming it, mode unknown, orientation goes on, and back when it reads again",
    arguments: [
      (FakeHinge.baseIndex, "garbage"), (FakeHinge.displayIndex, "garbage"), (FakeHinge.baseIndex, "99999"),
    ])
  func garbage(device: Int, value: String) throws {
    let run = try FakeHinge.start()
    try run.setHinge(250)
    #expect(run.waitForHinge(250, "tablet"))
    try run.write("in_accel_x_raw", value, device: device)
    let (role, name) =
      device == FakeHinge.baseIndex
      ? ("base", "iio:device1 (accel_base)") : ("display", "iio:device0 (accel_lid)")
    #expect(
      run.process.waitFor("hinge: no usable reading from the \(role) accelerometer \(name)", inStderr: true))
    #expect(run.waitUntilHinge { $0.last == HingeLine(angle: nil, mode: "unknown") }, "\(run.hingeLines)")
    if device == FakeHinge.baseIndex {
      try run.setRaw(256, 0, 0, device: FakeHinge.displayIndex)
      #expect(run.process.waitFor("device left-up"), "\(run.process.stdout)")
    }
    try run.setHinge(250)
    #expect(run.process.waitFor("hinge: the \(role) accelerometer \(name) reads again", inStderr: true))
    #expect(run.waitUntilHinge { $0.last == HingeLine(angle: 250, mode: "tablet") }, "\(run.hingeLines)")
    #expect(run.stop() == 0)
  }

  @Test(
    "A base sensor read through its buffer: its last scan stays current while it is silent, and each new scan counts"
  )
  func bufferedBase() throws {
    let (baseIndex, displayIndex) = (0, 1)
    let run = try FakeSensorRun(
      devices: FakeHinge.bufferedPair, arguments: FakeHinge.arguments + ["--mode", "buffer"], bufferFIFO: true
    )
    let start = FakeHinge.raw(opening: 90)
    try run.setRaw(start.display.0, start.display.1, start.display.2, device: displayIndex)
    run.writeScans([(Int16(start.base.0), Int16(start.base.1), Int16(start.base.2))])
    #expect(run.process.waitFor("capture mode buffer (--mode buffer)", inStderr: true))
    #expect(run.waitForHinge(90, "laptop"), "\(run.process.stderr)")

    // The lid opens while the base, still, has sent nothing for longer than a polled sensor
    // may stay silent (3 intervals, at least 300 ms): its last scan is still the base's.
    #expect(try run.waitForPolls(50, device: displayIndex))
    let open = FakeHinge.raw(opening: 250)
    try run.setRaw(open.display.0, open.display.1, open.display.2, device: displayIndex)
    #expect(run.waitForHinge(250, "tablet"), "\(run.hingeLines)")

    // The whole device tilts about the hinge and the lid closes to 120: with the base's old
    // scan the lid's new reading would give about 157 degrees; with its new one, 120.
    let tilted = FakeHinge.raw(opening: 120, base: FakeHinge.direction(0, 0.6, -0.8))
    run.writeScans([(Int16(tilted.base.0), Int16(tilted.base.1), Int16(tilted.base.2))])
    try run.setRaw(tilted.display.0, tilted.display.1, tilted.display.2, device: displayIndex)
    #expect(run.waitUntilHinge { $0.last == HingeLine(angle: 120, mode: "laptop") }, "\(run.hingeLines)")
    #expect(!run.process.stderr.contains("no usable reading"), "\(run.process.stderr)")
    #expect(run.stop() == 0)
    #expect(run.read("buffer/enable", device: baseIndex) == "0")
  }

  @Test("With a display sensor alone, or --device naming the base, there is no hinge and no look for one")
  func noBase() throws {
    let alone = try FakeSensorRun(devices: [FakeHinge.display], arguments: FakeHinge.arguments)
    #expect(alone.process.waitFor("orientation normal"))
    // Longer than the second between looks for a missing sensor.
    #expect(try alone.waitForPolls(150, device: FakeHinge.displayIndex))
    #expect(alone.stop() == 0)
    #expect(!alone.process.stderr.contains("hinge"), "\(alone.process.stderr)")
    #expect(!alone.process.stderr.contains("base"), "\(alone.process.stderr)")

    let named = try FakeSensorRun(
      devices: [FakeHinge.display, FakeHinge.base],
      arguments: FakeHinge.arguments + ["--device", "iio:device1"])
    #expect(named.process.waitFor("using iio:device1 (accel_base)", inStderr: true))
    #expect(try named.waitForPolls(150, device: FakeHinge.baseIndex))
    #expect(named.stop() == 0)
    #expect(!named.process.stderr.contains("hinge"), "\(named.process.stderr)")
  }
}

/// Whether `values` pass within 5 of each of `targets` in order (other values may come between).
private func follows(_ values: [Int], _ targets: [Int]) -> Bool {
  var remaining = targets[...]
  for value in values {
    if let target = remaining.first, abs(value - target) < 5 { remaining = remaining.dropFirst() }
  }
  return remaining.isEmpty
}

extension FakeHingeRun {
  /// Waits until the hinge lines satisfy `condition`.
  func waitUntilHinge(timeout: Double = patience, _ condition: ([HingeLine]) -> Bool) -> Bool {
    waitUntil(timeout: timeout) { condition(hingeLines) }
  }
}
