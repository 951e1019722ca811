/// Decides which light levels are published: a level that moves only within the sensor's
/// noise is not published again, a real change is published at the reading that shows it.
///
/// iio-sensor-proxy publishes every reading that differs from the last one, so a sensor with
/// a percent of noise makes a `PropertiesChanged` (and, through gnome-settings-daemon, a
/// brightness change) at every poll: the jumpy light level its users report. Two rules
/// replace that:
///
/// - **A step**: a reading more than `stepFraction` (10 %) away from the level published (and
///   more than the floor) is published at once. Ten percent is about the smallest change of
///   brightness the eye tells apart, so a lamp switched on or a hand over the sensor shows
///   at the reading that sees it, within one sample period.
/// - **A drift**: the mean of the last `window` readings (4), once it is more than
///   `driftFraction` (5 %) away from the level published (and more than the floor), is
///   published. A slow ramp (dusk) is followed in 5 % steps, a level that moved by less than
///   a step is caught up with, and noise of a few percent, which averages out over the
///   window, is never published.
///
/// The floor keeps the dark quiet, where a percent is less than one count of the sensor: no
/// change smaller than `floor` (at least 1 lux or 1 vendor unit, and two of the sensor's
/// counts) is ever published. A change of unit is always published. Pure: readings in,
/// levels to publish out.
package struct LightFilter: Sendable {
  /// A step this far from the level published is published at once.
  package static let stepFraction = 0.10
  /// The window's mean this far from the level published is published.
  package static let driftFraction = 0.05
  /// The readings the drift rule averages.
  package static let window = 4

  /// The smallest change ever published, in the level's unit.
  package let floor: Double
  /// The level last published; nil before the first reading (or after `reset`).
  package private(set) var published: LightLevel?
  private var recent: [Double] = []

  /// A filter for a sensor whose smallest step (one count, through its scale) is
  /// `resolution` in its unit.
  package init(resolution: Double = 0) {
    floor = max(1, 2 * (resolution.isFinite ? abs(resolution) : 0))
  }

  /// Takes a reading; returns the level to publish now, or nil when it is within the noise.
  package mutating func take(_ level: LightLevel) -> LightLevel? {
    guard let last = published, last.unit == level.unit else { return settle(on: level) }
    if abs(level.value - last.value) > max(Self.stepFraction * last.value, floor) { return settle(on: level) }
    recent.append(level.value)
    if recent.count > Self.window { recent.removeFirst(recent.count - Self.window) }
    guard recent.count == Self.window else { return nil }
    let mean = recent.reduce(0, +) / Double(recent.count)
    guard abs(mean - last.value) > max(Self.driftFraction * last.value, floor) else { return nil }
    return settle(on: LightLevel(mean, unit: level.unit))
  }

  /// The sensor stopped: its next reading is published whatever it is.
  package mutating func reset() {
    published = nil
    recent.removeAll()
  }

  private mutating func settle(on level: LightLevel) -> LightLevel {
    published = level
    recent.removeAll()
    return level
  }
}
