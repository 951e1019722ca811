/// What went wrong in capturing a sensor, as the driver met it: a look that found nothing to
/// read, a buffer that would not open or broke, a read that failed.
///
/// The plan takes faults as values rather than as text: it decides from what a fault is
/// (how far apart to look again, whether the device is gone) and says what it was in its log
/// lines through the fault's description. The types are the driver's (libiio's errors, an
/// errno), which this module does not know; they tell the plan what it needs through this
/// protocol.
package protocol CaptureFault: Error, Sendable, CustomStringConvertible {
  /// How long to wait before the next look, after this fault ended a look.
  var backOff: CapturePlan.BackOff { get }
  /// Whether, after a read failed with this fault, the device is taken as gone rather than
  /// one reading as lost.
  var meansDeviceGone: Bool { get }
}

extension CaptureFault {
  /// A second, as for a sensor that is simply not there.
  package var backOff: CapturePlan.BackOff { .none }
  /// One reading lost, unless the fault says otherwise.
  package var meansDeviceGone: Bool { false }
}
