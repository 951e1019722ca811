import OrientCore
import OrientIIO
import OrientSystem

/// The shell of a sensor hub's change sensitivity for one `AccelerometerDriver`: while capture
/// goes through the buffer it sets the hub's sensitivity and fast report rate
/// (`HubReportSettings`), hands every scan to the `HubCadence` and switches the rate as it says,
/// and puts both back when capture leaves the buffer or stops.
///
/// The hub is set at the first scan after it was asked for (`set`) at which the classifier has
/// nothing pending: a hub that honours its sensitivity sends nothing more while the device
/// rests, and a change pending then (the first orientation of all, at start) would wait for
/// the next move to be decided.
///
/// It lives as long as its driver, across set-ups of the sensor, so that it can say once what
/// it set and that a hub ignores its sensitivity, and hand what a lost sensor had to the next
/// set-up of the same sensor (as `SamplingFrequencies` is handed its rates).
final class HubReporting {
  private var settings: HubReportSettings?
  /// The sensor to set at the next scan with nothing pending, and its identity.
  private var requested: (accelerometer: Accelerometer, key: String)?
  private var cadence: HubCadence?
  /// The sensor set, by its identity across set-ups.
  private var sensor = ""
  /// Raw units to g, per axis (the shared scale), for the cadence.
  private var gPerRaw = 0.0
  /// What a sensor lost without putting its hub back had before, by the sensor's identity.
  private var lost: (sensor: String, originals: ChangeSensitivity.Originals)?
  /// The sensor whose set-up was said at info level (later ones are said at debug level), and
  /// whether its hub was found to ignore its sensitivity.
  private var known: (sensor: String, ignores: Bool)?

  /// Sets the hub of `accelerometer` (identified across set-ups by `key`) at the next scan
  /// with nothing pending, unless it is set already.
  func set(_ accelerometer: Accelerometer, key: String) {
    guard settings == nil else { return }
    requested = (accelerometer, key)
  }

  /// Sets the hub now, unless it is no hub orientd knows how to set.
  private func set(now accelerometer: Accelerometer, key: String) {
    let remembered = lost.flatMap { $0.sensor == key ? $0.originals : nil }
    lost = nil
    let first = known?.sensor != key
    if first { known = (key, false) }
    let settings: HubReportSettings
    do {
      settings = try HubReportSettings(tuning: accelerometer, remembered: remembered)
    } catch .notApplicable {
      return
    } catch {
      // Said once per sensor: capture goes on through the buffer at the hub's own settings.
      if first { Log.warning("\(error); buffered capture goes on at the hub's own reporting") }
      return
    }
    self.settings = settings
    sensor = key
    gPerRaw = settings.scale / standardGravity
    let ignores = known?.ignores == true
    cadence = HubCadence(
      sensitivity: settings.sensitivity, summary: accelerometer.summary, slowHertz: settings.slowHertz,
      fastHertz: settings.fastHertz, knownToIgnore: ignores)
    let line =
      "\(accelerometer.summary): the sensor hub reports moves of \(ChangeSensitivity.text(settings.sensitivity)) g "
      + "or more, at \(ChangeSensitivity.text(settings.fastHertz)) Hz, while the buffer captures "
      + "(\(settings.changes.joined(separator: ", "))); both go back when capture stops"
    if first { Log.info(line) } else { Log.debug(line) }
  }

  /// One scan's raw x, y and z, taken at `time`, after the classifier took it;
  /// `changePending`: whether it has a change pending now.
  func scanned(_ x: Int64, _ y: Int64, _ z: Int64, at time: SampleTime, changePending: Bool) {
    if let requested, !changePending {
      self.requested = nil
      set(now: requested.accelerometer, key: requested.key)
    }
    guard let settings,
      let actions = cadence?.scanned(
        Vector3(Double(x) * gPerRaw, Double(y) * gPerRaw, Double(z) * gPerRaw), at: time),
      !actions.isEmpty
    else { return }
    for action in actions {
      switch action {
      case .reportFast: settings.reportFast()
      case .reportSlow: settings.reportSlow()
      case .log(let note): Log.write(note)
      }
    }
    // `known` is this sensor's since it was set.
    if cadence?.ignoresSensitivity == true { known?.ignores = true }
  }

  /// Puts the hub's sensitivity and rate back (capture left the buffer, or stopped).
  func restore() {
    requested = nil
    settings?.restore()
    settings = nil
    cadence = nil
  }

  /// The sensor was lost: nothing is written now, and what it had before is kept for its next
  /// set-up.
  func forget() {
    requested = nil
    if let settings {
      lost = (sensor, settings.originals)
      settings.forget()
    }
    self.settings = nil
    cadence = nil
  }
}
