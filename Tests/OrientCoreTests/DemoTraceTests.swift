import OrientCore
import Testing

@Suite("The built-in demo")
struct DemoTraceTests {
  @Test("Replaying the demo reaches all six orientations and every screen orientation")
  func visitsEverything() {
    var classifier = OrientationClassifier()
    var tracker = OrientationTracker()
    var devices: Set<DeviceOrientation> = []
    var screens: Set<ScreenOrientation> = []
    for sample in DemoTrace.samples where classifier.classify(sample.gravity, at: sample.time).changed {
      for change in tracker.setDevice(classifier.current, at: .zero) {
        if case .device(let device?) = change { devices.insert(device) }
        if case .orientation(let screen?) = change { screens.insert(screen) }
      }
    }
    #expect(devices == Set(DeviceOrientation.allCases))
    #expect(screens == Set(ScreenOrientation.allCases))
  }

  @Test("Demo samples are unit vectors at strictly increasing times")
  func wellFormed() {
    let samples = DemoTrace.samples
    #expect(samples.allSatisfy { abs($0.gravity.magnitude - 1) < 1e-9 })
    #expect(zip(samples, samples.dropFirst()).allSatisfy { $0.time < $1.time })
    #expect(DemoTrace.loopLength == samples.last!.time - .zero + DemoTrace.step)
    #expect(DemoTrace.loopLength == .seconds(21))
  }
}
