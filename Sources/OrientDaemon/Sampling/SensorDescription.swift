import OrientCore
import OrientIIO

/// What the sensor thread knows about the attached sensor, for `info`, `doctor` and `calibrate`.
///
/// Its texts reach `info` replies as they are: what came from the device (id, name, udev
/// and sysfs values) was escaped where it entered orientd, in OrientIIO; the rest is
/// orientd's own wording, numbers it formatted, and the URI it was given.
///
/// Why this value has over 12 stored properties: it is the sensor's entry in `info` and
/// `orientctl doctor`, one field per line they print.
struct SensorDescription: Sendable {
  /// The IIO device id, e.g. `iio:device0`.
  var id: String
  var summary: String
  var reason: String
  var location: String
  var uri: String
  var capture = "starting"
  var captureReason = ""
  var scale: String
  var offset: String
  var matrix: Matrix3
  var matrixSource: MountMatrixSource
  var modalias: String
  var dmi: String

  /// The hwdb match key for this sensor on this machine.
  var hwdbKey: String { HwdbKey.make(modalias: modalias, dmi: dmi) }

  /// The facts as `info` lines.
  var items: [InfoItem] {
    [
      InfoItem("sensor", summary), InfoItem("device", id), InfoItem("chosen-because", reason),
      InfoItem("location", location),
      InfoItem("uri", uri), InfoItem("capture", capture), InfoItem("capture-reason", captureReason),
      // The capture's names before `tablet-mode` came: kept for clients of earlier versions.
      InfoItem("mode", capture), InfoItem("mode-reason", captureReason),
      InfoItem("scale", scale),
      InfoItem("offset", offset), InfoItem("matrix", MountMatrix.format(matrix)),
      InfoItem("matrix-source", matrixSource.kind), InfoItem("matrix-from", matrixSource.description),
      InfoItem("modalias", modalias.isEmpty ? "unknown" : modalias),
      InfoItem("dmi", dmi.isEmpty ? "unknown" : dmi),
      InfoItem("hwdb-key", hwdbKey),
    ]
  }
}

extension SensorDescription {
  /// What `info` shows of `setup`'s sensor, read through `context`, picked for `reason`.
  init(_ setup: SensorSetup, context: IIOContext, udev: UdevProperties?, reason: String) {
    let sensor = setup.accelerometer
    self.init(
      id: sensor.device.id, summary: sensor.summary, reason: reason,
      location: sensor.location.rawValue + (sensor.locationSource.map { " (\($0))" } ?? ""), uri: context.uri,
      scale: setup.scaleText, offset: setup.offsetText, matrix: setup.matrix.matrix,
      matrixSource: setup.matrix.source,
      modalias: udev?.parentModalias(ofIIODevice: sensor.device.id) ?? "",
      dmi: context.isLocal ? dmiModalias() ?? "" : "")
  }
}
