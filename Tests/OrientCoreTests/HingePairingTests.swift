import Testing

@testable import OrientCore

/// The base on a desk, as its corrected reading gives it (the lid-closed frame).
private let baseOnDesk = Vector3(0, 0, 1)
/// The lid upright over the base: 90 degrees, a laptop.
private let lidUpright = Vector3(0, -1, 0)
/// The lid folded down behind the base to 270 degrees: a tablet.
private let lidFoldedBack = Vector3(0, 1, 0)

private func at(_ milliseconds: Int64) -> SampleTime { SampleTime(sinceOrigin: .milliseconds(milliseconds)) }

private func sample(_ gravity: Vector3, _ milliseconds: Int64) -> Sample {
  Sample(time: at(milliseconds), raw: gravity, gravity: gravity)
}

/// A hinge polled every 200 ms with both sensors online, and its status after pairing.
private func pairedHinge(interval: Duration = .milliseconds(200)) -> HingePairing {
  var hinge = HingePairing(interval: interval)
  hinge.baseFound()
  _ = hinge.online(.display, true, summary: "iio:device0 (accel_3d)")
  _ = hinge.online(.base, true, summary: "iio:device1 (accel_base)")
  return hinge
}

extension HingePairing.Outcome {
  /// Nothing to log and no new status.
  fileprivate var isQuiet: Bool { notes.isEmpty && status == nil }
}

@Suite("Pairing the display and base accelerometers, and when a sensor is failing")
struct HingePairingTests {
  @Test("Pairing starts once both sensors are online, and the hinge becomes a mode source then")
  func pairingStarts() {
    var hinge = HingePairing(interval: .milliseconds(200))
    hinge.baseFound()
    let first = hinge.online(.display, true, summary: "iio:device0 (accel_3d)")
    #expect(first.notes.isEmpty)
    #expect(first.status == nil)
    let second = hinge.online(.base, true, summary: "iio:device1 (accel_base)")
    #expect(
      second.notes == [
        .info(
          "hinge: pairing iio:device0 (accel_3d) (display) with iio:device1 (accel_base) (base); the hinge angle gives the mode"
        ),
        .info("hinge angle unknown: unknown mode"),
      ])
    #expect(second.status == HingeStatus(available: true, mode: .unknown, angle: nil))
  }

  @Test("Readings of one sensor alone give no status, and a pair gives the mode and angle")
  func aPairGivesTheMode() {
    var hinge = pairedHinge()
    #expect(hinge.take(sample(lidUpright, 0), from: .display, polled: true).isQuiet)
    let paired = hinge.take(sample(baseOnDesk, 10), from: .base, polled: true)
    #expect(paired.status == HingeStatus(available: true, mode: .laptop, angle: 90))
    #expect(paired.notes == [.info("hinge 90 degrees: laptop mode")])
  }

  @Test("Polled readings more than 1.5 intervals and 20 ms apart make no pair; at that span they do")
  func pairWindow() {
    var hinge = pairedHinge()
    #expect(hinge.pairWindow == .milliseconds(320))
    _ = hinge.take(sample(lidUpright, 0), from: .display, polled: true)
    #expect(hinge.take(sample(baseOnDesk, 321), from: .base, polled: true).status == nil)
    #expect(hinge.take(sample(lidUpright, 642), from: .display, polled: true).status == nil)
    #expect(hinge.take(sample(baseOnDesk, 962), from: .base, polled: true).status?.mode == .laptop)
  }

  @Test("A buffered reading stays current: it pairs with a polled reading of any age")
  func bufferedReadingStaysCurrent() {
    var hinge = pairedHinge()
    _ = hinge.take(sample(baseOnDesk, 0), from: .base, polled: false)
    let outcome = hinge.take(sample(lidFoldedBack, 5_000), from: .display, polled: true)
    #expect(outcome.status == HingeStatus(available: true, mode: .tablet, angle: 270))
  }

  @Test(
    "A polled sensor silent for 3 intervals is failing until it reads again; the mode is unknown meanwhile")
  func silentPolledSensorFails() {
    var hinge = pairedHinge()
    #expect(hinge.failingAfter == .milliseconds(600))
    _ = hinge.take(sample(lidUpright, 0), from: .display, polled: true)
    _ = hinge.take(sample(baseOnDesk, 0), from: .base, polled: true)
    // The base reads on; the display's reads are garbage from here.
    #expect(hinge.take(sample(baseOnDesk, 600), from: .base, polled: true).notes.isEmpty)
    let failing = hinge.take(sample(baseOnDesk, 601), from: .base, polled: true)
    #expect(
      failing.notes == [
        .warning(
          "hinge: no usable reading from the display accelerometer iio:device0 (accel_3d) for 601 ms; "
            + "mode unknown until it reads again"),
        .info("hinge angle unknown: unknown mode"),
      ])
    #expect(failing.status == HingeStatus(available: true, mode: .unknown, angle: nil))
    // Said once.
    #expect(hinge.take(sample(baseOnDesk, 800), from: .base, polled: true).isQuiet)
    let back = hinge.take(sample(lidUpright, 900), from: .display, polled: true)
    #expect(
      back.notes == [
        .info("hinge: the display accelerometer iio:device0 (accel_3d) reads again"),
        .info("hinge 90 degrees: laptop mode"),
      ])
    #expect(back.status == HingeStatus(available: true, mode: .laptop, angle: 90))
  }

  @Test("A stall of the thread that reads both sensors is no sensor failing: neither read meanwhile")
  func stallIsNoFailure() {
    var hinge = pairedHinge()
    _ = hinge.take(sample(lidUpright, 0), from: .display, polled: true)
    _ = hinge.take(sample(baseOnDesk, 10), from: .base, polled: true)
    // Two seconds without a reading of either (a loaded machine), then both read again.
    let display = hinge.take(sample(lidUpright, 2_000), from: .display, polled: true)
    #expect(display.notes.allSatisfy { $0.level != .warning }, "\(display.notes)")
    #expect(display.status == nil)
    let base = hinge.take(sample(baseOnDesk, 2_010), from: .base, polled: true)
    #expect(base.notes.allSatisfy { $0.level != .warning }, "\(base.notes)")
    #expect(base.status == nil, "the hinge stays as it was")
    // Whereas the base reading on while the display stays silent still makes it failing.
    for time in stride(from: 2_100, through: 2_500, by: 100) {
      _ = hinge.take(sample(baseOnDesk, Int64(time)), from: .base, polled: true)
    }
    let failing = hinge.take(sample(baseOnDesk, 2_700), from: .base, polled: true)
    #expect(failing.notes.first?.level == .warning, "\(failing.notes)")
  }

  @Test("Failing takes at least 300 ms whatever the interval")
  func failingFloor() {
    #expect(HingePairing(interval: .milliseconds(20)).failingAfter == .milliseconds(300))
    #expect(HingePairing(interval: .milliseconds(20)).pairWindow == .milliseconds(50))
  }

  @Test("A buffered sensor may stay silent, but one whose readings are all out of range is failing")
  func rejectedReadingsFail() {
    var hinge = pairedHinge()
    _ = hinge.take(sample(lidUpright, 0), from: .display, polled: false)
    _ = hinge.take(sample(baseOnDesk, 0), from: .base, polled: true)
    // Silence from the buffer is no failure.
    #expect(hinge.take(sample(baseOnDesk, 5_000), from: .base, polled: true).status == nil)
    #expect(hinge.rejected(.display, at: at(5_100)).notes.first?.level == .warning)
    #expect(hinge.take(sample(baseOnDesk, 5_200), from: .base, polled: true).status == nil)
    var fresh = pairedHinge()
    _ = fresh.take(sample(lidUpright, 0), from: .display, polled: false)
    _ = fresh.take(sample(baseOnDesk, 0), from: .base, polled: true)
    let rejected = fresh.rejected(.display, at: at(601))
    #expect(rejected.status == HingeStatus(available: true, mode: .unknown, angle: nil))
    #expect(
      rejected.notes.first?.text.hasPrefix("hinge: no usable reading from the display accelerometer") == true)
  }

  @Test("A sensor going offline starts the hinge afresh and says so, where a base sensor was found")
  func offlineStartsAfresh() {
    var hinge = pairedHinge()
    _ = hinge.take(sample(lidUpright, 0), from: .display, polled: true)
    _ = hinge.take(sample(baseOnDesk, 0), from: .base, polled: true)
    let offline = hinge.online(.base, false, summary: "the sensor")
    #expect(
      offline.notes == [
        .warning(
          "hinge: the base accelerometer iio:device1 (accel_base) is offline; no hinge until it is back"),
        .info("hinge angle unknown: unknown mode (no hinge)"),
      ])
    #expect(offline.status == .unavailable)
    _ = hinge.online(.base, true, summary: "iio:device1 (accel_base)")
    // The display's reading from before is forgotten: a base reading alone makes no pair.
    #expect(hinge.take(sample(baseOnDesk, 100), from: .base, polled: true).status == nil)
    #expect(hinge.take(sample(lidUpright, 110), from: .display, polled: true).status?.mode == .laptop)
  }

  @Test("Without a base sensor, the display going offline and back says nothing")
  func noBaseNoWarning() {
    var hinge = HingePairing(interval: .milliseconds(200))
    _ = hinge.online(.display, true, summary: "iio:device0 (accel_3d)")
    #expect(hinge.online(.display, false, summary: "iio:device0 (accel_3d)").isQuiet)
    #expect(hinge.take(sample(lidUpright, 0), from: .display, polled: true).isQuiet)
  }

  @Test("The lid switch is logged when it changes, and a closed lid makes a laptop whatever the angle")
  func lidSwitch() {
    var hinge = pairedHinge()
    #expect(hinge.setLid(closed: false) == [.info("hinge: the lid switch says open")])
    #expect(hinge.setLid(closed: false).isEmpty)
    #expect(hinge.setLid(closed: true) == [.info("hinge: the lid switch says closed")])
    _ = hinge.take(sample(lidFoldedBack, 0), from: .display, polled: true)
    #expect(hinge.take(sample(baseOnDesk, 0), from: .base, polled: true).status?.mode == .laptop)
    #expect(hinge.setLid(closed: nil) == [.info("hinge: the lid switch says nothing (no switch)")])
  }

  @Test("Ignored readings are noted once each time the reason changes")
  func ignoredReadings() {
    var hinge = pairedHinge()
    let vertical = Vector3(0.8, -0.6, 0)
    _ = hinge.take(sample(vertical, 0), from: .display, polled: true)
    let first = hinge.take(sample(Vector3(0.8, 0, 0.6), 0), from: .base, polled: true)
    #expect(first.notes == [.debug("hinge: readings ignored: the hinge is near vertical (0.80 g along it)")])
    #expect(hinge.take(sample(vertical, 100), from: .display, polled: true).notes.isEmpty)
    let moving = hinge.take(sample(Vector3(0, -1.3, 0), 200), from: .display, polled: true)
    #expect(
      moving.notes == [.debug("hinge: readings ignored: the device is moving (magnitudes 1.30 g and 1.00 g)")]
    )
  }

  @Test("A new angle in the same mode is a debug line; a new mode an info line")
  func statusLines() {
    var hinge = pairedHinge()
    _ = hinge.take(sample(lidUpright, 0), from: .display, polled: true)
    _ = hinge.take(sample(baseOnDesk, 0), from: .base, polled: true)
    // 120 degrees: the lid turned 30 degrees back about the hinge.
    let opened = hinge.take(sample(Vector3(0, -0.866025, -0.5), 100), from: .display, polled: true)
    #expect(opened.notes == [.debug("hinge 120 degrees: laptop mode")])
    #expect(opened.status == HingeStatus(available: true, mode: .laptop, angle: 120))
    let folded = hinge.take(sample(lidFoldedBack, 200), from: .display, polled: true)
    #expect(folded.notes == [.info("hinge 270 degrees: tablet mode")])
  }
}
