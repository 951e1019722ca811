import OrientCore
import OrientSystem

/// Where an accelerometer sits in a convertible: in the display lid or in the keyboard base.
package enum SensorLocation: String, Sendable {
  case display
  case base
  case unknown
}

/// One axis's calibration and the attribute files it came from.
package struct AxisSetup: Sendable {
  package var calibration: AxisCalibration
  /// The scale's file, or nil when none was found and 1.0 is assumed.
  package var scaleFile: String?
  /// The offset's file, or nil when there is none (offset 0).
  package var offsetFile: String?
}

/// An IIO device with accel x, y and z channels: raw attributes to poll, scan elements to
/// capture through a buffer, or both.
package struct Accelerometer {
  /// The device.
  package let device: IIODevice
  /// Where the sensor sits, and what said so.
  package let location: SensorLocation
  package let locationSource: String?
  /// Whether it has `in_accel_{x,y,z}_raw`, so it can be polled.
  package let canPoll: Bool
  /// Whether accel x, y and z are scan elements, so it can capture through a buffer.
  package let canBuffer: Bool
  /// What was wrong with the location udev gave, e.g. a typo in a hwdb entry, which must not
  /// pass for "no location" without a word; the sensor is then located by its other hints.
  package let locationProblem: String?

  static let axes = ["x", "y", "z"]

  /// Recognises an accelerometer: it needs `in_accel_{x,y,z}_raw`, or accel x, y and z
  /// scan elements. Some drivers offer only the latter (iio-sensor-proxy reads them too).
  init?(device: IIODevice, udev: UdevProperties?) {
    canPoll = PollCapture.files.allSatisfy({ device.handle(for: $0) != nil })
    canBuffer = BufferCapture.isSupported(by: device)
    guard canPoll || canBuffer else { return nil }
    self.device = device
    let (location, source, problem) = Self.locate(device, udev: udev)
    (self.location, locationSource) = (location, source)
    locationProblem = problem.map { "\(device.id): \($0)" }
  }

  /// How it can be captured, for `--list`.
  package var captureText: String {
    switch (canBuffer, canPoll) {
    case (true, true): return "buffer or poll (scan elements for accel x, y and z)"
    case (true, false):
      return "buffer only (scan elements for accel x, y and z, no in_accel_{x,y,z}_raw to poll)"
    default: return "poll only (no scan elements)"
    }
  }

  /// Whether its buffer would capture with a trigger: one `context` has that the buffer would
  /// be set to (`IIOBufferSession`), or one already set (an hrtimer trigger someone chose),
  /// which the buffer keeps when none of its own is found.
  package func hasTrigger(in context: IIOContext) -> Bool {
    IIOBufferSession.trigger(for: device, in: context) != nil || device.hasCurrentTrigger
  }

  /// Why polling cannot read it, when it cannot: the error that `mode poll` gives.
  package var whyNotPollable: IIOError? { canPoll ? nil : .notPollable(sensor: summary) }

  private static func locate(_ device: IIODevice, udev: UdevProperties?) -> (SensorLocation, String?, String?)
  {
    var problem: String?
    if let value = udev?.value("ACCEL_LOCATION", ofIIODevice: device.id) {
      if let location = SensorLocation(rawValue: value), location != .unknown {
        return (location, "udev ACCEL_LOCATION", nil)
      }
      // iio-sensor-proxy reads `lid` as the display too, and hwdb entries use it.
      if value == "lid" { return (.display, "udev ACCEL_LOCATION", nil) }
      problem = "udev ACCEL_LOCATION '\(value)' is neither display, lid nor base; ignoring it"
    }
    let (location, source) = locate(device)
    return (location, source, problem)
  }

  /// The location from sysfs: the label, then the `location` attribute.
  private static func locate(_ device: IIODevice) -> (SensorLocation, String?) {
    switch device.label {
    case "accel-base": return (.base, "sysfs label")
    case "accel-display": return (.display, "sysfs label")
    default: break
    }
    if case .text(let value) = device.read("location") {
      if value == "base" { return (.base, "sysfs location") }
      if value == "lid" { return (.display, "sysfs location") }
    }
    return (.unknown, nil)
  }

  /// A one-line identity for logs, e.g. `iio:device0 (accel_3d)`.
  package var summary: String {
    device.name.isEmpty ? device.id : "\(device.id) (\(device.name))"
  }

  /// Reads each axis's scale and offset, preferring per-axis files over shared ones. The
  /// device-wide `scale` comes last: some drivers (cros-ec, on every Chromebook) give only that.
  func axisSetups(warn: (String) -> Void) -> [AxisSetup] {
    var unscaled: [String] = []
    let setups = Self.axes.map { axis in
      let scale = firstNumber(
        ["in_accel_\(axis)_scale", "in_accel_scale", "scale"], valid: { $0 > 0 }, warn: warn)
      if scale == nil { unscaled.append(axis) }
      let offset = firstNumber(
        ["in_accel_\(axis)_offset", "in_accel_offset"], valid: { _ in true }, warn: warn)
      return AxisSetup(
        calibration: AxisCalibration(scale: scale?.value ?? 1, offset: offset?.value ?? 0),
        scaleFile: scale?.file, offsetFile: offset?.file)
    }
    if !unscaled.isEmpty {
      // The kernel's IIO ABI gives m/s² as (raw + offset) * scale, with a scale given only
      // "if known for a device" and no other value defined. Without one, the raw value is
      // taken as m/s² (scale 1.0), as iio-sensor-proxy does; that is often wrong, so say so.
      let files = unscaled.map { "in_accel_\($0)_scale" } + ["in_accel_scale", "scale"]
      warn(
        "\(summary): no usable scale for axis \(unscaled.joined(separator: ", ")) (\(files.joined(separator: ", "))); "
          + "assuming 1.0, raw values taken as m/s²"
      )
    }
    return setups
  }

  private func firstNumber(
    _ files: [String], valid: (Double) -> Bool, warn: (String) -> Void
  ) -> (value: Double, file: String)? {
    for file in files {
      switch device.read(file) {
      case .missing:
        continue
      case .failed(let code):
        warn("\(summary): cannot read \(file): \(code); ignoring it")
      case .text(let text):
        guard let value = NumberParsing.finiteDouble(text.trimmingSpaces), valid(value) else {
          warn("\(summary): \(file) holds '\(text)', not a usable number; ignoring it")
          continue
        }
        return (value, file)
      }
    }
    return nil
  }

  /// The mount-matrix candidates in contract order: option, udev, then sysfs files.
  func mountMatrixCandidates(option: Matrix3?, udev: UdevProperties?) -> [MountMatrixCandidate] {
    var candidates: [MountMatrixCandidate] = []
    if let option {
      candidates.append(MountMatrixCandidate(source: .option, text: MountMatrix.format(option)))
    }
    if let text = udev?.value("ACCEL_MOUNT_MATRIX", ofIIODevice: device.id) {
      candidates.append(MountMatrixCandidate(source: .udev, text: text))
    }
    for file in sysfsMountMatrixAttributes {
      if case .text(let text) = device.read(file) {
        candidates.append(MountMatrixCandidate(source: .sysfs(file), text: text))
      }
    }
    return candidates
  }
}
