import OrientCore

/// A capture fault as a test names it: its text, how far apart the sensor is looked for after
/// it, and whether it means the device is gone.
struct TestFault: CaptureFault {
  let description: String
  let backOff: CapturePlan.BackOff
  let meansDeviceGone: Bool

  init(_ description: String, backOff: CapturePlan.BackOff = .none, gone: Bool = false) {
    self.description = description
    self.backOff = backOff
    meansDeviceGone = gone
  }
}
