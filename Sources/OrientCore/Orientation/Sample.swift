/// One accelerometer reading in g, before and after the mount matrix.
package struct Sample: Equatable, Sendable {
  /// When it was taken: trace time for a replay, time since start when live.
  package var time: SampleTime
  /// The reading in the sensor's own frame (equal to `gravity` for traces).
  package var raw: Vector3
  /// The reading in the corrected (display) frame, the one the classifier uses.
  package var gravity: Vector3

  /// Creates a sample.
  package init(time: SampleTime, raw: Vector3, gravity: Vector3) {
    self.time = time
    self.raw = raw
    self.gravity = gravity
  }

  /// A sample from a trace, whose vectors are already corrected.
  package init(_ trace: TraceSample) {
    self.init(time: trace.time, raw: trace.gravity, gravity: trace.gravity)
  }
}
