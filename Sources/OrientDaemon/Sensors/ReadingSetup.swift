import OrientCore
import OrientIIO
import OrientSystem

/// What a reading sensor's driver is set up with, read from its IIO device: the model (with
/// the scale and offset the kernel's ABI says apply), and the interval a poll takes.
enum ReadingSetup {
  /// The model for `kind` read at `prefix` (`in_illuminance`, `in_intensity_both`,
  /// `in_rot_from_north_magnetic_tilt_comp`), processed (`_input`) or raw, with `rule` for a
  /// proximity sensor. Problems with the device's files are said through `warn`, naming it.
  static func model(
    _ kind: SensorKind, device: IIODevice, prefix: String, processed: Bool, rule: ProximityDetector.Rule?,
    warn: (String) -> Void
  ) -> any ReadingModel {
    switch kind {
    case .light:
      guard !processed else { return LightModel(conversion: LightConversion(processed: true)) }
      let scale = number(ReadingChannels.scaleFiles(prefix), of: device, valid: { $0 > 0 }, warn: warn)
      if scale == nil {
        warn(
          "\(device.summary): no usable scale for \(prefix)_raw (\(ReadingChannels.scaleFiles(prefix).joined(separator: ", "))); "
            + "taking the raw value as lux, as iio-sensor-proxy does")
      }
      let offset = number(ReadingChannels.offsetFiles(prefix), of: device, valid: { _ in true }, warn: warn)
      return LightModel(conversion: LightConversion(processed: false, scale: scale ?? 1, offset: offset ?? 0))
    case .compass:
      let scale = number(ReadingChannels.scaleFiles(prefix), of: device, valid: { $0 != 0 }, warn: warn)
      let offset = number(ReadingChannels.offsetFiles(prefix), of: device, valid: { _ in true }, warn: warn)
      return CompassModel(scale: scale ?? 1, offset: offset ?? 0)
    case .proximity:
      return ProximityModel(rule: rule ?? .presence)
    case .hinge:
      let scale = number(ReadingChannels.scaleFiles(prefix), of: device, valid: { $0 > 0 }, warn: warn)
      if scale == nil {
        warn(
          "\(device.summary): no usable scale for \(prefix)_raw (\(ReadingChannels.scaleFiles(prefix).joined(separator: ", "))); "
            + "taking a count as a degree, as the Intel hinge driver counts")
      }
      let offset = number(ReadingChannels.offsetFiles(prefix), of: device, valid: { _ in true }, warn: warn)
      return HingeSensorModel(scale: scale ?? HingeSensorModel.degreeInRadians, offset: offset ?? 0)
    case .accelerometer:
      return ProximityModel(rule: .presence)
    }
  }

  /// The poll interval of `kind` at `prefix`: a light sensor's integration time where it gives
  /// one (`in_illuminance_integration_time`, in seconds, as the ABI says), else the default.
  static func interval(_ kind: SensorKind, device: IIODevice, prefix: String) -> Duration {
    guard kind == .light else { return ReadingIntervals.interval(kind, integrationSeconds: nil) }
    let files = [prefix + "_integration_time", "in_illuminance_integration_time", "integration_time"]
    let seconds = files.lazy.compactMap { file -> Double? in
      guard case .text(let text) = device.read(file) else { return nil }
      return NumberParsing.finiteDouble(text.trimmingSpaces)
    }.first
    return ReadingIntervals.interval(kind, integrationSeconds: seconds)
  }

  private static func number(
    _ files: [String], of device: IIODevice, valid: (Double) -> Bool, warn: (String) -> Void
  ) -> Double? {
    for file in files {
      switch device.read(file) {
      case .missing: continue
      case .failed(let code): warn("\(device.summary): cannot read \(file): \(code); ignoring it")
      case .text(let text):
        guard let value = NumberParsing.finiteDouble(text.trimmingSpaces), valid(value) else {
          warn("\(device.summary): \(file) holds '\(text)', not a usable number; ignoring it")
          continue
        }
        return value
      }
    }
    return nil
  }
}
