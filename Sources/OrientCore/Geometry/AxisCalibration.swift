/// Standard gravity in m/s², the unit IIO scales produce.
public let standardGravity = 9.80665

/// Turns one axis's raw reading into g: `(raw + offset) * scale / 9.80665`.
public struct AxisCalibration: Equatable, Sendable {
  public var scale: Double
  public var offset: Double

  /// Creates a calibration from the IIO scale (m/s² per raw unit) and offset (raw units).
  public init(scale: Double, offset: Double = 0) {
    self.scale = scale
    self.offset = offset
  }

  /// The reading in g.
  @inlinable
  public func gravity(raw: Double) -> Double {
    (raw + offset) * scale / standardGravity
  }
}

/// Converts raw three-axis readings into a gravity vector in the corrected frame.
public struct SampleConverter: Equatable, Sendable {
  public var x: AxisCalibration
  public var y: AxisCalibration
  public var z: AxisCalibration
  public var mountMatrix: Matrix3

  /// Creates a converter from per-axis calibrations and the mount matrix.
  public init(x: AxisCalibration, y: AxisCalibration, z: AxisCalibration, mountMatrix: Matrix3) {
    self.x = x
    self.y = y
    self.z = z
    self.mountMatrix = mountMatrix
  }

  /// The reading in g before the mount matrix.
  @inlinable
  public func uncorrected(rawX: Double, rawY: Double, rawZ: Double) -> Vector3 {
    Vector3(x.gravity(raw: rawX), y.gravity(raw: rawY), z.gravity(raw: rawZ))
  }

  /// The reading in g in the corrected (display) frame: converted first, then rotated.
  @inlinable
  public func corrected(rawX: Double, rawY: Double, rawZ: Double) -> Vector3 {
    mountMatrix * uncorrected(rawX: rawX, rawY: rawY, rawZ: rawZ)
  }
}
