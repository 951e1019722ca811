/// Standard gravity in m/s², the unit IIO scales produce.
package let standardGravity = 9.80665

/// Turns one axis's raw reading into g: `(raw + offset) * scale / 9.80665`.
package struct AxisCalibration: Equatable, Sendable {
  package var scale: Double
  package var offset: Double

  /// Creates a calibration from the IIO scale (m/s² per raw unit) and offset (raw units).
  package init(scale: Double, offset: Double = 0) {
    self.scale = scale
    self.offset = offset
  }

  /// The reading in g.
  @inlinable
  package func gravity(raw: Double) -> Double {
    (raw + offset) * scale / standardGravity
  }
}
