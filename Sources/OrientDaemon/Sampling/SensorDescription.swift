import OrientCore

/// What the sensor thread knows about the attached sensor, for `info`, `doctor` and `calibrate`.
///
/// Its texts reach `info` replies as they are: what came from the device (id, name, udev
/// and sysfs values) was escaped where it entered orientd, in OrientIIO; the rest is
/// orientd's own wording, numbers it formatted, and the URI it was given.
public struct SensorDescription: Sendable {
  /// The IIO device id, e.g. `iio:device0`.
  public var id: String
  public var summary: String
  public var reason: String
  public var location: String
  public var uri: String
  public var mode = "starting"
  public var modeReason = ""
  public var scale: String
  public var offset: String
  public var matrix: Matrix3
  public var matrixSource: MountMatrixSource
  public var modalias: String
  public var dmi: String

  /// The hwdb match key for this sensor on this machine.
  public var hwdbKey: String { HwdbKey.make(modalias: modalias, dmi: dmi) }

  /// The facts as `info` lines.
  public var items: [InfoItem] {
    [
      InfoItem("sensor", summary), InfoItem("device", id), InfoItem("chosen-because", reason),
      InfoItem("location", location),
      InfoItem("uri", uri), InfoItem("mode", mode), InfoItem("mode-reason", modeReason),
      InfoItem("scale", scale),
      InfoItem("offset", offset), InfoItem("matrix", MountMatrix.format(matrix)),
      InfoItem("matrix-source", matrixSource.kind), InfoItem("matrix-from", matrixSource.description),
      InfoItem("modalias", modalias.isEmpty ? "unknown" : modalias),
      InfoItem("dmi", dmi.isEmpty ? "unknown" : dmi),
      InfoItem("hwdb-key", hwdbKey),
    ]
  }
}
