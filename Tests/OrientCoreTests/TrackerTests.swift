import OrientCore
import Testing

@Suite("Tracking the whole state")
struct TrackerTests {
  @Test("When one sample changes both, the device change comes before the screen change")
  func deviceBeforeScreen() {
    var tracker = OrientationTracker(settings: instant)
    #expect(
      tracker.add(DeviceOrientation.leftUp.gravity, at: .zero) == [.device(.leftUp), .orientation(.leftUp)])
    #expect(
      tracker.add(DeviceOrientation.faceUp.gravity, at: SampleTime(milliseconds: 1)) == [.device(.faceUp)])
  }

  @Test("Detection goes on while the screen is locked")
  func detectionWhileLocked() throws {
    var tracker = OrientationTracker(settings: instant)
    _ = tracker.add(DeviceOrientation.normal.gravity, at: .zero)
    _ = try tracker.apply { (policy: inout ScreenPolicy) throws(PolicyError) in try policy.lock() }
    #expect(
      tracker.add(DeviceOrientation.rightUp.gravity, at: SampleTime(milliseconds: 1)) == [.device(.rightUp)])
    #expect(tracker.orientation == .normal)
    let changes = tracker.apply { (policy: inout ScreenPolicy) in policy.unlock() }
    #expect(changes == [.lock(nil), .orientation(.rightUp)])
  }

  @Test("The snapshot lists sensor, device, orientation, lock and allowed in protocol order")
  func snapshot() {
    var tracker = OrientationTracker(settings: instant)
    _ = tracker.setSensor(online: true)
    _ = tracker.add(DeviceOrientation.bottomUp.gravity, at: .zero)
    #expect(
      tracker.snapshot.map(\.line) == [
        "sensor online", "device bottom-up", "orientation bottom-up", "lock off",
        "allowed normal,left-up,bottom-up,right-up",
      ])
  }

  @Test("Sensor status changes are reported once")
  func sensorStatus() {
    var tracker = OrientationTracker()
    #expect(tracker.setSensor(online: true) == [.sensor(online: true)])
    #expect(tracker.setSensor(online: true) == [])
    #expect(tracker.setSensor(online: false) == [.sensor(online: false)])
  }
}
