/// Converts raw three-axis readings into a gravity vector in the corrected frame, and turns
/// away readings that cannot be gravity.
package struct SampleConverter: Equatable, Sendable {
  package var x: AxisCalibration
  package var y: AxisCalibration
  package var z: AxisCalibration
  package var mountMatrix: Matrix3

  /// Readings beyond this many g on an axis are garbage, not gravity.
  static let plausibleLimit = 32.0

  /// Creates a converter from per-axis calibrations and the mount matrix.
  package init(x: AxisCalibration, y: AxisCalibration, z: AxisCalibration, mountMatrix: Matrix3) {
    self.x = x
    self.y = y
    self.z = z
    self.mountMatrix = mountMatrix
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
  /// range: beyond `plausibleLimit` on an axis, or not finite once rotated. A mount matrix is
  /// read from the device too, and with huge entries the product overflows to infinity (or
  /// NaN), which would reach clients and the recorded trace.
  package func sample(rawX: Double, rawY: Double, rawZ: Double, at time: SampleTime) -> Sample? {
    let raw = uncorrected(rawX: rawX, rawY: rawY, rawZ: rawZ)
    let gravity = mountMatrix * raw
    let limit = Self.plausibleLimit
    guard raw.isFinite, abs(raw.x) <= limit, abs(raw.y) <= limit, abs(raw.z) <= limit, gravity.isFinite
    else { return nil }
    return Sample(time: time, raw: raw, gravity: gravity)
  }
}
