import OrientCore
import Testing

@Suite("Tracking the whole state")
struct TrackerTests {
  @Test("When the device turns to an allowed orientation, the device change comes before the screen change")
  func deviceBeforeScreen() {
    var tracker = OrientationTracker()
    #expect(tracker.setDevice(.leftUp, at: .zero) == [.device(.leftUp), .orientation(.leftUp)])
    #expect(tracker.setDevice(.faceUp, at: .zero) == [.device(.faceUp)])
    #expect(tracker.setDevice(.faceUp, at: .zero) == [], "an unchanged device orientation is no change")
  }

  @Test("Detection goes on while the screen is locked, and unlocking follows the device at once")
  func detectionWhileLocked() throws {
    var tracker = OrientationTracker()
    _ = tracker.setDevice(.normal, at: .zero)
    _ = try tracker.apply { (policy: inout ScreenPolicy) throws(PolicyError) in try policy.lock() }
    #expect(tracker.setDevice(.rightUp, at: .zero) == [.device(.rightUp)])
    #expect(tracker.device == .rightUp)
    #expect(tracker.orientation == .normal)
    let changes = tracker.apply { (policy: inout ScreenPolicy) in policy.unlock() }
    #expect(changes == [.lock(nil), .orientation(.rightUp)])
  }

  @Test("The snapshot lists sensor, device, orientation, lock, allowed and mode in protocol order")
  func snapshot() {
    var tracker = OrientationTracker()
    _ = tracker.setSensor(online: true)
    _ = tracker.setDevice(.bottomUp, at: .zero)
    #expect(
      tracker.snapshot.map(\.line) == [
        "sensor online", "device bottom-up", "orientation bottom-up", "lock off",
        "allowed normal,left-up,bottom-up,right-up", "mode unknown",
      ])
  }

  @Test("Where there is a hinge the snapshot ends with its angle, undefined until one is known")
  func snapshotWithHinge() {
    var tracker = OrientationTracker()
    _ = tracker.updateMode { $0.hinge = HingeStatus(available: true) }
    #expect(tracker.snapshot.suffix(2).map(\.line) == ["mode unknown", "hinge undefined"])
    _ = tracker.updateMode { $0.hinge = HingeStatus(available: true, mode: .tablet, angle: 250) }
    #expect(tracker.snapshot.suffix(2).map(\.line) == ["mode tablet", "hinge 250"])
  }

  @Test("Sensor status changes are reported once")
  func sensorStatus() {
    var tracker = OrientationTracker()
    #expect(tracker.setSensor(online: true) == [.sensor(online: true)])
    #expect(tracker.setSensor(online: true) == [])
    #expect(tracker.setSensor(online: false) == [.sensor(online: false)])
  }
}
