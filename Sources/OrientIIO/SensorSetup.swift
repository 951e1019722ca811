import OrientCore
import OrientSystem

/// An accelerometer made ready to sample: calibrated, with its mount matrix chosen.
package struct SensorSetup {
  package let accelerometer: Accelerometer
  package let axes: [AxisSetup]
  package let matrix: MountMatrixChoice

  /// Reads calibration and mount matrix, passing every warning to `warn`.
  package init(
    accelerometer: Accelerometer, matrixOption: Matrix3?, udev: UdevProperties?, warn: (String) -> Void
  ) {
    self.accelerometer = accelerometer
    axes = accelerometer.axisSetups(warn: warn)
    matrix = MountMatrixChoice(
      candidates: accelerometer.mountMatrixCandidates(option: matrixOption, udev: udev))
    for warning in matrix.warnings { warn("\(accelerometer.summary): \(warning)") }
  }

  /// The converter from raw readings to corrected g.
  package var converter: SampleConverter {
    SampleConverter(
      x: axes[0].calibration, y: axes[1].calibration, z: axes[2].calibration, mountMatrix: matrix.matrix,
      scaleKnown: axes.allSatisfy { $0.scaleFile != nil })
  }

  /// The scales, e.g. `0.038307 (in_accel_scale)`, or one entry per axis when they differ.
  package var scaleText: String {
    let parts = axes.map { axis in
      "\(axis.calibration.scale) (\(axis.scaleFile ?? "none, assumed"))"
    }
    if Set(parts).count == 1 { return parts[0] }
    return zip(Accelerometer.axes, parts).map { "\($0) \($1)" }.joined(separator: ", ")
  }

  /// The offsets, e.g. `0`, or one entry per axis when they differ.
  package var offsetText: String {
    let parts = axes.map { axis in
      axis.offsetFile.map { "\(axis.calibration.offset) (\($0))" } ?? "0"
    }
    if Set(parts).count == 1 { return parts[0] }
    return zip(Accelerometer.axes, parts).map { "\($0) \($1)" }.joined(separator: ", ")
  }
}
