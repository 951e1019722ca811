/// Converts raw three-axis readings into a gravity vector in the corrected frame, and turns
/// away readings that cannot be gravity.
package struct SampleConverter: Equatable, Sendable {
  package var x: AxisCalibration
  package var y: AxisCalibration
  package var z: AxisCalibration
  package var mountMatrix: Matrix3
  /// Whether every axis has a scale the device gave. Without one the scale is taken as 1.0,
  /// readings are raw counts in units nobody knows (often about 1000 to the g), and no limit
  /// in g can tell garbage from gravity: the classifier judges them by direction.
  package var scaleKnown: Bool

  /// Readings beyond this many g on an axis are garbage, not gravity, when the scale is known.
  static let plausibleLimit = 32.0

  /// Creates a converter from per-axis calibrations and the mount matrix.
  package init(
    x: AxisCalibration, y: AxisCalibration, z: AxisCalibration, mountMatrix: Matrix3, scaleKnown: Bool = true
  ) {
    self.x = x
    self.y = y
    self.z = z
    self.mountMatrix = mountMatrix
    self.scaleKnown = scaleKnown
  }

  /// The reading in g before the mount matrix.
  @inlinable
  package func uncorrected(rawX: Double, rawY: Double, rawZ: Double) -> Vector3 {
    Vector3(x.gravity(raw: rawX), y.gravity(raw: rawY), z.gravity(raw: rawZ))
  }

  /// The reading in g in the corrected (display) frame: converted first, then rotated.
  @inlinable
  package func corrected(rawX: Double, rawY: Double, rawZ: Double) -> Vector3 {
    mountMatrix * uncorrected(rawX: rawX, rawY: rawY, rawZ: rawZ)
  }

  /// The sample that a raw reading taken at `time` makes, or nil when the reading is out of
  /// range: beyond `plausibleLimit` on an axis (with a known scale), or not finite once rotated. A mount matrix is
  /// read from the device too, and with huge entries the product overflows to infinity (or
  /// NaN), which would reach clients and the recorded trace.
  package func sample(rawX: Double, rawY: Double, rawZ: Double, at time: SampleTime) -> Sample? {
    let raw = uncorrected(rawX: rawX, rawY: rawY, rawZ: rawZ)
    let gravity = mountMatrix * raw
    let limit = scaleKnown ? Self.plausibleLimit : .infinity
    guard raw.isFinite, abs(raw.x) <= limit, abs(raw.y) <= limit, abs(raw.z) <= limit, gravity.isFinite
    else { return nil }
    return Sample(time: time, raw: raw, gravity: gravity)
  }
}
