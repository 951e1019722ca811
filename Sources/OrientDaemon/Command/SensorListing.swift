import OrientConfig
import OrientCore
import OrientIIO
import OrientInput
import OrientSystem

/// The `--list` report: every accelerometer with its calibration, matrix and live reading.
enum SensorListing {
  /// Lists the accelerometers of the context; throws (exit 69) when there is none.
  static func run(options: DaemonOptions) throws(Failure) -> String {
    let context: IIOContext
    do {
      context = try IIOContext.open(uri: options.uri)
    } catch {
      throw Failure(error)
    }
    let udev = context.isLocal ? UdevProperties() : nil
    let sensors = SensorDiscovery.accelerometers(in: context, udev: udev)
    guard !sensors.isEmpty else {
      throw Failure(
        "no accelerometer in IIO context \(context.uri) (\(context.devices.count) IIO device(s) checked "
          + "for in_accel_x/y/z_raw or accel x, y and z scan elements); try --uri ip:HOST for a remote iiod, or --demo",
        exitCode: .unavailable)
    }
    var warnings: [String] = []
    var chosen: Accelerometer?
    do {
      chosen = try SensorDiscovery.choose(from: sensors, selector: options.device, context: context)
    } catch {
      // Still a listing (the user may be looking for the name to give --device), but with why
      // no sensor is marked.
      warnings.append("\(error); none would be used")
    }
    var report = ""
    for sensor in sensors {
      let setup = SensorSetup(
        accelerometer: sensor, matrixOption: options.mountMatrix, udev: udev, warn: { warnings.append($0) })
      if let problem = sensor.locationProblem { warnings.append(problem) }
      let marker = chosen?.device.id == sensor.device.id ? "* " : "  "
      report +=
        marker + sensor.device.id + "  " + (sensor.device.name.isEmpty ? "(no name)" : sensor.device.name)
      report += chosen?.device.id == sensor.device.id ? "  (would be used)\n" : "\n"
      let locationSource = sensor.locationSource.map { " (\($0))" } ?? ""
      report += "    location: \(sensor.location.rawValue)\(locationSource)"
      report += sensor.device.label.map { ", label \($0)" } ?? ""
      report += "\n    scale: \(setup.scaleText)\n    offset: \(setup.offsetText)\n"
      report += "    mount matrix: \(MountMatrix.format(setup.matrix.matrix))\n"
      report += "    matrix source: \(setup.matrix.source.kind) (\(setup.matrix.source.detail))\n"
      let modalias = udev?.parentModalias(ofIIODevice: sensor.device.id) ?? ""
      let dmi = context.isLocal ? dmiModalias() ?? "" : ""
      report += "    modalias: \(modalias.isEmpty ? "unknown" : modalias)\n"
      report += "    hwdb match: \(HwdbKey.make(modalias: modalias, dmi: dmi))\n"
      report += "    capture: \(sensor.captureText)\n"
      report += "    " + reading(of: setup, settings: options.settings) + "\n"
    }
    for warning in warnings { Log.warning(warning) }
    return report + readingSensors(in: context, udev: udev)
  }

  /// The light sensors, proximity sensors, compasses and hinge sensors found, how each would
  /// be read, and why one that cannot be is not used.
  private static func readingSensors(in context: IIOContext, udev: UdevProperties?) -> String {
    var facts = ReadingDiscovery.iioDevices(in: context, udev: udev).map(\.facts)
    if context.isLocal {
      facts += ReadingDiscovery.hwmonLightSensors()
      facts += ProximitySwitch.find().map {
        SensorDeviceFacts(source: .input(devnode: $0.devnode, name: $0.name))
      }
    }
    let findings = SensorInventory.findings(facts)
    var report = "\nOther sensors (read while a client needs them; a hinge sensor always):\n"
    for kind in SensorKind.valueKinds {
      let found = findings.filter { $0.kind == kind }
      guard !found.isEmpty else {
        report += "  \(kind.noun): none\n"
        continue
      }
      for finding in found {
        let marker = finding.chosen ? "* " : "  "
        report += marker + "\(kind.noun): \(finding.device.label)"
        if let plan = finding.plan {
          report += finding.chosen ? "  (would be used)\n" : "  (another one is used)\n"
          report += "      \(plan.description)\n"
        } else {
          report += "  (not used)\n      \(finding.problem ?? "")\n"
        }
      }
    }
    return report
  }

  private static func reading(of setup: SensorSetup, settings: ClassifierSettings) -> String {
    switch PollCapture(accelerometer: setup.accelerometer).read() {
    case .failure(let error):
      return "reading: unavailable (\(error))"
    case .success(let raw):
      let gravity = setup.converter.corrected(rawX: raw.x, rawY: raw.y, rawZ: raw.z)
      let classifier = OrientationClassifier(settings: settings)
      let verdict: String
      if !classifier.passesShakeGate(gravity) {
        verdict = "unclassified (magnitude far from 1 g)"
      } else {
        verdict = orientationName(classifier.proposal(for: gravity))
      }
      return "gravity: x \(DecimalFormatting.signedFixed(gravity.x, decimals: 3)) "
        + "y \(DecimalFormatting.signedFixed(gravity.y, decimals: 3)) "
        + "z \(DecimalFormatting.signedFixed(gravity.z, decimals: 3)) g "
        + "(magnitude \(DecimalFormatting.fixed(gravity.magnitude, decimals: 3))) -> \(verdict)"
    }
  }
}
