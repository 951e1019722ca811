import Testing

@testable import OrientCore

private let summary = "iio:device0 (accel_3d)"

private func cadence(knownToIgnore: Bool = false, slow: Double = 10, fast: Double = 25) -> HubCadence {
  HubCadence(
    sensitivity: 0.05, summary: summary, slowHertz: slow, fastHertz: fast, knownToIgnore: knownToIgnore)
}

/// Scan `index` of a hub at 25 Hz: 40 ms apart.
private func at(scan index: Int) -> SampleTime { SampleTime(milliseconds: Int64(index) * 40) }

/// The device upright, with a noise of `noise` g on x.
private func upright(noise: Double = 0) -> Vector3 { Vector3(noise, -1, 0) }

/// Feeds `readings` as scans 40 ms apart from scan `first` on; returns every action.
private func feed(_ watch: inout HubCadence, _ readings: [Vector3], from first: Int = 0) -> [HubCadence
  .Action]
{
  readings.enumerated().flatMap { index, reading in watch.scanned(reading, at: at(scan: first + index)) }
}

/// A noisy resting device: readings within 0.02 g of upright.
private func resting(_ count: Int) -> [Vector3] {
  (0..<count).map { upright(noise: [0, 0.01, -0.01, 0.02][$0 % 4]) }
}

private let ignoredWarning = HubCadence.Action.log(
  .warning(
    "iio:device0 (accel_3d): the sensor hub ignores its change sensitivity of 0.05 g (10 scans in a row "
      + "within it in 0.36 s); it reports at 10 Hz while the device rests and at 25 Hz while it moves"))

@Suite("Whether a sensor hub honours its change sensitivity, and its report rate for that")
struct HubCadenceTests {
  @Test("A hub that honours its sensitivity sends only moves, and is trusted however long it goes on")
  func honouringHub() {
    var watch = cadence()
    // A turn: every report moved by the sensitivity or more on some axis since the one before
    // (5 degrees move an axis by 0.06 g or more all the way).
    let turn = (0...18).map { uprightTilt(degrees: Double($0) * 5) }
    #expect(feed(&watch, turn).isEmpty)
    // Then nothing comes while the device rests; much later, a nudge of exactly 0.05 g.
    #expect(watch.scanned(Vector3(1, 0.05, 0), at: at(scan: 1000)).isEmpty)
    #expect(watch.state == .trusting(quietScans: 0))
    #expect(!watch.ignoresSensitivity)
  }

  @Test("Ten scans in a row within the sensitivity show a hub that ignores it: the slow rate, and a warning")
  func ignoringHubFound() {
    var watch = cadence()
    // The first scan is only the reference; nine quiet ones are not yet enough.
    #expect(feed(&watch, resting(10)).isEmpty)
    #expect(watch.state == .trusting(quietScans: 9))
    #expect(watch.scanned(upright(), at: at(scan: 10)) == [.reportSlow, ignoredWarning])
    #expect(watch.state == .resting)
    #expect(watch.ignoresSensitivity)
    // Resting on, nothing more is asked or said.
    #expect(feed(&watch, resting(50), from: 11).isEmpty)
  }

  @Test("A move in the middle starts the count again")
  func moveResetsTheCount() {
    var watch = cadence()
    _ = feed(&watch, resting(8))
    #expect(watch.scanned(uprightTilt(degrees: 10), at: at(scan: 8)).isEmpty)
    #expect(watch.state == .trusting(quietScans: 0))
    #expect(feed(&watch, Array(repeating: uprightTilt(degrees: 10), count: 9), from: 9).isEmpty)
    #expect(watch.scanned(uprightTilt(degrees: 10), at: at(scan: 18)).first == .reportSlow)
  }

  @Test(
    "On a hub that ignores it, the first move asks for the fast rate, and ten quiet scans for the slow one")
  func ignoringHubFollowsTheDevice() {
    var watch = cadence()
    _ = feed(&watch, resting(11))
    #expect(watch.state == .resting)
    // A scan 0.06 g off on one axis is a move.
    #expect(
      watch.scanned(upright(noise: 0.06), at: at(scan: 20))
        == [.reportFast, .log(.debug("iio:device0 (accel_3d): the device moves: the hub reports at 25 Hz"))])
    #expect(watch.state == .moving(quietScans: 0))
    // A turn keeps it fast.
    #expect(feed(&watch, (1...20).map { uprightTilt(degrees: Double($0) * 4.5) }, from: 21).isEmpty)
    let end = uprightTilt(degrees: 90)
    #expect(feed(&watch, Array(repeating: end, count: 9), from: 41).isEmpty)
    #expect(
      watch.scanned(end, at: at(scan: 50))
        == [.reportSlow, .log(.debug("iio:device0 (accel_3d): the device rests: the hub reports at 10 Hz"))])
    #expect(watch.state == .resting)
  }

  @Test("A slow drift counts as a move once it adds up to the sensitivity")
  func driftAddsUp() {
    var watch = cadence()
    _ = feed(&watch, resting(11))
    // 0.02 g a scan from the last move: the third is 0.06 g away.
    #expect(watch.scanned(upright(noise: 0.02), at: at(scan: 11)).isEmpty)
    #expect(watch.scanned(upright(noise: 0.04), at: at(scan: 12)).isEmpty)
    #expect(watch.scanned(upright(noise: 0.06), at: at(scan: 13)).first == .reportFast)
  }

  @Test("A hub known to ignore its sensitivity starts fast and is not reported again")
  func knownToIgnore() {
    var watch = cadence(knownToIgnore: true)
    #expect(watch.ignoresSensitivity)
    #expect(watch.state == .moving(quietScans: 0))
    let actions = feed(&watch, resting(11))
    #expect(actions.first == .reportSlow)
    #expect(!actions.contains(ignoredWarning))
  }

  @Test("With no slower rate to go back to, the hub is still found out, and no rate is asked for")
  func noRateToChange() {
    var watch = cadence(slow: 50, fast: 50)
    let actions = feed(&watch, resting(11))
    #expect(
      actions == [
        .log(
          .warning(
            "iio:device0 (accel_3d): the sensor hub ignores its change sensitivity of 0.05 g (10 scans in a row "
              + "within it in 0.36 s); its report rate stays at 50 Hz"))
      ])
    #expect(feed(&watch, [upright(noise: 0.3)] + resting(20), from: 11).isEmpty)
  }
}
