import OrientCore
import OrientSystem

/// Sets a HID sensor hub's change sensitivity (`in_accel_hysteresis`) and report rate
/// (`in_accel_sampling_frequency`) for buffered capture as `ChangeSensitivity` says, switches
/// the rate between fast and slow as `HubCadence` asks, and puts both back.
///
/// `SamplingFrequencies` raises the rate first, for polling and buffer alike; this comes after
/// it, for the buffer alone, and goes back before it: the slow rate is the one it left.
/// The sensitivity is written before the fast rate and put back after the slow one, so the hub
/// never reports its noise at the fast rate.
package final class HubReportSettings {
  /// What was there before, to write back.
  package struct Originals: Equatable, Sendable {
    /// `in_accel_hysteresis` as read.
    package var sensitivity: String
    /// The rate file as read, or nil when it was left alone.
    package var rate: String?
  }

  /// Why a device's hub reporting was not set.
  package enum Refusal: Error, Equatable, CustomStringConvertible {
    /// The device is no sensor hub orientd knows how to set (no `in_accel_hysteresis`, another
    /// driver, a scale of unknown unit): nothing to say.
    case notApplicable
    /// Reading or writing a file failed, or the hub did not take the value; what was changed
    /// is back as it was.
    case failed(String)

    package var description: String {
      switch self {
      case .notApplicable: return "not a sensor hub whose change sensitivity orientd knows"
      case .failed(let reason): return reason
      }
    }
  }

  static let sensitivityFile = "in_accel_hysteresis"
  /// The rate files, the accelerometer's own first.
  static let rateFiles = ["in_accel_sampling_frequency", "sampling_frequency"]

  private let accelerometer: Accelerometer
  private let rateFile: String
  /// What to write back; nil once written back or forgotten.
  private var pending: Originals?
  /// What was there before, as `originals` gives it after `forget`.
  package let originals: Originals
  /// The sensitivity the hub took, in g (as read back).
  package let sensitivity: Double
  /// The slow and fast rates, in Hz, and the slow one's text (as it was read).
  package let slowHertz: Double
  package let fastHertz: Double
  private let fastText: String?
  /// What was set, for the log: `in_accel_hysteresis 0.000000 -> 0.05 (g), ...`.
  package let changes: [String]
  /// Whether the rate asked for now is the fast one.
  private var fast = true

  /// Sets the hub of `accelerometer` to report moves of `ChangeSensitivity.wanted` at the fast
  /// rate. `remembered` holds what an earlier set-up of this same device found, when it was
  /// lost without putting it back: the device may still hold orientd's values, which must not
  /// pass for the hub's own.
  package init(tuning accelerometer: Accelerometer, remembered: Originals?) throws(Refusal) {
    self.accelerometer = accelerometer
    let device = accelerometer.device
    guard device.has(Self.sensitivityFile), let rateFile = Self.rateFiles.first(where: { device.has($0) }),
      case .text(let scaleText) = device.read("in_accel_scale"),
      let scale = NumberParsing.finiteDouble(scaleText.trimmingSpaces),
      let target = ChangeSensitivity(driver: device.name, scale: scale)
    else { throw .notApplicable }
    self.rateFile = rateFile
    let summary = accelerometer.summary
    let currentSensitivity = try Self.read(Self.sensitivityFile, of: accelerometer)
    let currentRate = try Self.read(rateFile, of: accelerometer)
    guard let rateNow = NumberParsing.finiteDouble(currentRate.trimmingSpaces), rateNow > 0 else {
      throw .failed("\(summary): \(rateFile) holds '\(currentRate)', not a rate")
    }
    let originalSensitivity = remembered?.sensitivity ?? currentSensitivity
    let originalRate = remembered?.rate ?? currentRate
    // The rate before orientd's, which the fast one is chosen against and the slow one is.
    slowHertz = NumberParsing.finiteDouble(originalRate.trimmingSpaces) ?? rateNow

    if let code = device.write(Self.sensitivityFile, target.wantedText) {
      throw .failed("\(summary): cannot set \(Self.sensitivityFile) to \(target.wantedText): \(code)")
    }
    let readBack: String
    do {
      readBack = try Self.read(Self.sensitivityFile, of: accelerometer)
    } catch {
      device.write(Self.sensitivityFile, originalSensitivity)
      throw error
    }
    guard let taken = target.g(fromAttribute: readBack), ChangeSensitivity.accepts(taken) else {
      device.write(Self.sensitivityFile, originalSensitivity)
      throw .failed(
        "\(summary): the sensor hub took no usable change sensitivity: \(Self.sensitivityFile) "
          + "\(target.wantedText) read back as \(readBack)")
    }
    sensitivity = taken
    var changes = ["\(Self.sensitivityFile) \(currentSensitivity) -> \(readBack)"]
    if let moving = ChangeSensitivity.movingRate(current: slowHertz) {
      let text = ChangeSensitivity.text(moving)
      if let code = device.write(rateFile, text) {
        device.write(Self.sensitivityFile, originalSensitivity)
        throw .failed("\(summary): cannot set \(rateFile) to \(text): \(code)")
      }
      fastHertz = moving
      fastText = text
      changes.append("\(rateFile) \(currentRate) -> \(text) Hz")
    } else {
      fastHertz = slowHertz
      fastText = nil
    }
    originals = Originals(sensitivity: originalSensitivity, rate: fastText == nil ? nil : originalRate)
    pending = originals
    self.changes = changes
  }

  deinit { restore() }

  /// Asks for the fast rate (the device moves), unless it is asked for already.
  package func reportFast() { setRate(fast: true) }

  /// Asks for the slow rate (the device rests on a hub that ignores its sensitivity).
  package func reportSlow() { setRate(fast: false) }

  private func setRate(fast wanted: Bool) {
    guard wanted != fast, pending != nil, let fastText, let slowText = originals.rate else { return }
    let text = wanted ? fastText : slowText
    if let code = accelerometer.device.write(rateFile, text) {
      // The next move or rest asks again; capture goes on at the rate the hub has.
      Log.warning("\(accelerometer.summary): cannot set \(rateFile) to \(text): \(code)")
      return
    }
    fast = wanted
  }

  /// Writes the originals back: the rate, then the sensitivity.
  package func restore() {
    guard let pending else { return }
    self.pending = nil
    if let rate = pending.rate { accelerometer.device.write(rateFile, rate) }
    accelerometer.device.write(Self.sensitivityFile, pending.sensitivity)
  }

  /// Drops the originals without writing them, when the device cannot be written to now;
  /// `originals` keeps them for the next set-up.
  package func forget() { pending = nil }

  private static func read(_ file: String, of accelerometer: Accelerometer) throws(Refusal) -> String {
    switch accelerometer.device.read(file) {
    case .text(let text): return text
    case .missing: throw .failed("\(accelerometer.summary): \(file) is gone")
    case .failed(let code): throw .failed("\(accelerometer.summary): cannot read \(file): \(code)")
    }
  }
}
