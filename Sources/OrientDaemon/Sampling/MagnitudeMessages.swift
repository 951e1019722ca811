import OrientCore
import OrientSystem

/// What the detector says when samples hold a steady magnitude far from 1 g: the warning with
/// the likely cause (the scale, and the one that would give 1 g), and when it is over.
extension Detector {
  /// Logs a change in how samples are divided, naming the sensor and the scale that would
  /// give 1 g.
  func log(_ change: SteadyMagnitude.Change) {
    let seconds = SteadyMagnitude.steadyTime.wholeSeconds
    let who = sensor.map { "\($0.summary): its samples" } ?? "samples"
    switch change {
    case .dividing(let magnitude):
      let measured = Self.magnitudeText(magnitude)
      // Without a scale they were classified by their direction meanwhile, not thrown away.
      let meanwhile =
        sensor?.scales.contains { $0.file == nil } == true
        ? "; with no scale they were classified by their direction alone meanwhile"
        : ", so each fails the magnitude gate"
      Log.warning(
        "\(who) have held a steady \(measured) g for \(seconds) s instead of 1 g\(meanwhile); "
          + "\(scaleAdvice(magnitude)); classifying them divided by \(measured) g until they measure 1 g "
          + "again")
    case .stoppedDividing(let magnitude):
      Log.info(
        "\(who) hold a steady \(Self.magnitudeText(magnitude)) g again: the scale is right now; "
          + "classifying them as they are")
    case .nearZero(let magnitude):
      Log.warning(
        "\(who) have held a steady \(Self.magnitudeText(magnitude)) g for \(seconds) s: there is no "
          + "gravity to classify; is the sensor working"
          + (sensor.map { ", and its scale (\(Self.scalesText($0.scales))) right?" } ?? "?"))
    }
  }

  /// The likely cause of a steady `magnitude` far from 1 g: the scale, with what would give 1 g.
  private func scaleAdvice(_ magnitude: Double) -> String {
    guard let sensor else { return "a wrong scale is the likely cause" }
    let right = sensor.scales.map { ($0.value / magnitude, $0.file) }
    let plural = Set(sensor.scales.map { "\($0.value) \($0.file ?? "")" }).count > 1
    let reported = Self.scalesText(sensor.scales)
    let wanted = Self.scalesText(right, reading: true)
    return plural
      ? "the scales it reports, \(reported), are likely wrong: \(wanted) would give 1 g"
      : "the scale it reports, \(reported), is likely wrong: \(wanted) would give 1 g"
  }

  /// Scales as `0.995982 (in_accel_scale)`, or per axis when they differ; `reading` leaves out
  /// the files (for scales computed, not read).
  private static func scalesText(_ scales: [(value: Double, file: String?)], reading: Bool = false) -> String
  {
    let parts = scales.map { scale in
      let value = reading ? DecimalFormatting.significant(scale.value, digits: 5) : "\(scale.value)"
      return reading ? value : "\(value) (\(scale.file ?? "none, 1.0 assumed"))"
    }
    guard Set(parts).count > 1, parts.count == 3 else { return parts.first ?? "" }
    return zip(["x", "y", "z"], parts).map { "\($0) \($1)" }.joined(separator: ", ")
  }

  /// A magnitude in g for the log, to four significant digits.
  static func magnitudeText(_ magnitude: Double) -> String {
    DecimalFormatting.significant(magnitude, digits: 4)
  }
}
