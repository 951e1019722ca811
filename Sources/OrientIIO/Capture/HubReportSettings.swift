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
  private let plan: ChangeSensitivity.Plan
  /// Whether the originals are still to be written back (not yet, nor forgotten).
  private var pending = true
  /// What was there before, as `originals` gives it after `forget`.
  package var originals: ChangeSensitivity.Originals { plan.originals }
  /// The sensitivity the hub took, in g (as read back).
  package let sensitivity: Double
  /// The slow and fast rates, in Hz.
  package var slowHertz: Double { plan.slowHertz }
  package var fastHertz: Double { plan.fastHertz }
  /// The accelerometer's scale (`in_accel_scale`), m/s² a raw unit.
  package let scale: Double
  /// What was set, for the log: `in_accel_hysteresis 0.000000 -> 0.050000, ...`.
  package let changes: [String]
  /// Whether the rate asked for now is the fast one.
  private var fast = true

  /// Sets the hub of `accelerometer` to report moves of `ChangeSensitivity.wanted` at the fast
  /// rate, as `ChangeSensitivity.plan` says; `remembered` is what an earlier set-up of this
  /// same device found, when it was lost without putting it back.
  package init(tuning accelerometer: Accelerometer, remembered: ChangeSensitivity.Originals?) throws(Refusal)
  {
    self.accelerometer = accelerometer
    let device = accelerometer.device
    guard device.has(Self.sensitivityFile), let rateFile = Self.rateFiles.first(where: { device.has($0) }),
      case .text(let scaleText) = device.read("in_accel_scale"),
      let scale = NumberParsing.finiteDouble(scaleText.trimmingSpaces),
      let target = ChangeSensitivity(driver: device.name, scale: scale)
    else { throw .notApplicable }
    self.rateFile = rateFile
    self.scale = scale
    let summary = accelerometer.summary
    let currentSensitivity = try Self.read(Self.sensitivityFile, of: accelerometer)
    let currentRate = try Self.read(rateFile, of: accelerometer)
    guard let plan = target.plan(sensitivity: currentSensitivity, rate: currentRate, remembered: remembered)
    else { throw .failed("\(summary): \(rateFile) holds '\(currentRate)', not a rate") }
    self.plan = plan

    if let code = device.write(Self.sensitivityFile, plan.sensitivity) {
      throw .failed("\(summary): cannot set \(Self.sensitivityFile) to \(plan.sensitivity): \(code)")
    }
    let readBack: String
    do {
      readBack = try Self.read(Self.sensitivityFile, of: accelerometer)
    } catch {
      device.write(Self.sensitivityFile, plan.originals.sensitivity)
      throw error
    }
    guard let taken = target.g(fromAttribute: readBack), ChangeSensitivity.accepts(taken) else {
      device.write(Self.sensitivityFile, plan.originals.sensitivity)
      throw .failed(
        "\(summary): the sensor hub took no usable change sensitivity: \(Self.sensitivityFile) "
          + "\(plan.sensitivity) read back as \(readBack)")
    }
    sensitivity = taken
    var changes = ["\(Self.sensitivityFile) \(currentSensitivity) -> \(readBack)"]
    if let rate = plan.fastRate {
      if let code = device.write(rateFile, rate) {
        device.write(Self.sensitivityFile, plan.originals.sensitivity)
        throw .failed("\(summary): cannot set \(rateFile) to \(rate): \(code)")
      }
      changes.append("\(rateFile) \(currentRate) -> \(rate) Hz")
    }
    self.changes = changes
  }

  deinit { restore() }

  /// Asks for the fast rate (the device moves), unless it is asked for already.
  package func reportFast() { setRate(fast: true) }

  /// Asks for the slow rate (the device rests on a hub that ignores its sensitivity).
  package func reportSlow() { setRate(fast: false) }

  private func setRate(fast wanted: Bool) {
    guard wanted != fast, pending, let fastRate = plan.fastRate, let slowRate = plan.originals.rate else {
      return
    }
    let text = wanted ? fastRate : slowRate
    if let code = accelerometer.device.write(rateFile, text) {
      // The next move or rest asks again; capture goes on at the rate the hub has.
      Log.warning("\(accelerometer.summary): cannot set \(rateFile) to \(text): \(code)")
      return
    }
    fast = wanted
  }

  /// Writes the originals back: the rate, then the sensitivity.
  package func restore() {
    guard pending else { return }
    pending = false
    if let rate = plan.originals.rate { accelerometer.device.write(rateFile, rate) }
    accelerometer.device.write(Self.sensitivityFile, plan.originals.sensitivity)
  }

  /// Drops the originals without writing them, when the device cannot be written to now;
  /// `originals` keeps them for the next set-up.
  package func forget() { pending = false }

  private static func read(_ file: String, of accelerometer: Accelerometer) throws(Refusal) -> String {
    switch accelerometer.device.read(file) {
    case .text(let text): return text
    case .missing: throw .failed("\(accelerometer.summary): \(file) is gone")
    case .failed(let code): throw .failed("\(accelerometer.summary): cannot read \(file): \(code)")
    }
  }
}
