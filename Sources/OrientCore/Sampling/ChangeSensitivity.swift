/// What orientd asks of a HID sensor hub's accelerometer while it reads it through its buffer:
/// to report only a move of at least 0.05 g (the hub's change sensitivity, IIO's
/// `in_accel_hysteresis`) and to look for one every 40 ms (its report interval,
/// `in_accel_sampling_frequency` 25 Hz). A hub that honours both sends nothing while the device
/// rests, so the sampling thread sleeps, and follows a turn with a report every 40 ms.
///
/// **The attribute's unit.** The IIO ABI gives hysteresis in the channel's processed unit
/// (m/s² for acceleration), but hid-sensor-accel-3d does not convert it: the kernel
/// (`hid_sensor_write_raw_hyst_value` and `convert_to_vtf_format` in hid-sensor-attributes.c)
/// applies only the sensitivity field's unit exponent, so the value is in the field's own unit.
/// For an accelerometer that is g (the HID sensor usages' unit for acceleration, which the
/// kernel also takes when a hub declares none): 0.05 becomes 50 in a milli-g field, 5 in a
/// centi-g one. A hub may declare m/s² instead; the kernel then makes `in_accel_scale` 10^e
/// rather than 9.80665 × 10^e (`hid_sensor_format_scale`), and the sensitivity field is taken
/// to be in the unit of the data fields. A scale that is neither, or another driver, is left
/// alone: orientd would not know what it writes. What the hub took is read back
/// (`accepts`): a field whose exponent is too coarse for 0.05 reads back 0.
///
/// Pure: texts in, texts and decisions out.
package struct ChangeSensitivity: Equatable, Sendable {
  /// The least move the hub is asked to report, in g. A still device's noise is a few
  /// hundredths of a g at most (`BufferRetryTrigger` takes 0.1 g as movement), and a turn
  /// moves a component by 0.7 g before the classifier (threshold 0.6 g) can see it: 0.05 g
  /// keeps a resting device silent, and a 90-degree turn still sends a report at every interval.
  package static let wanted = 0.05
  /// The largest sensitivity read back that is taken, in g: a hub that rounds 0.05 up to 0.1
  /// still reports every turn; one that makes it coarser could hold a wrong value at rest.
  package static let largestAccepted = 0.1
  /// The report rate asked for, in Hz: a report every 40 ms follows a turn closely, and costs
  /// nothing at rest on a hub that honours its sensitivity.
  package static let movingHertz = 25.0
  /// The driver whose attribute's unit is known: hid-sensor-accel-3d.
  package static let driver = "accel_3d"

  /// The unit of `in_accel_hysteresis`.
  package enum Unit: Equatable, Sendable {
    /// g, the HID sensor usages' unit for acceleration.
    case standardGravity
    /// m/s², for a hub that declares it.
    case metresPerSecondSquared
  }

  /// The unit of the device's `in_accel_hysteresis`.
  package let unit: Unit

  /// The sensitivity of a device of driver `driver` whose `in_accel_scale` is `scale`, or nil
  /// when orientd does not know the unit of its attribute.
  package init?(driver: String, scale: Double) {
    guard driver == Self.driver, scale > 0, scale.isFinite else { return nil }
    if Self.isPowerOfTen(scale / standardGravity) {
      unit = .standardGravity
    } else if Self.isPowerOfTen(scale) {
      unit = .metresPerSecondSquared
    } else {
      return nil
    }
  }

  /// The text to write for the wanted sensitivity: `0.05` in g, `0.490333` in m/s².
  package var wantedText: String { Self.text(Self.wanted * unitsPerG) }

  /// A sensitivity read from the attribute, in g; nil when the text is no number or negative.
  package func g(fromAttribute text: String) -> Double? {
    guard let value = NumberParsing.finiteDouble(text.trimmingSpaces), value >= 0 else { return nil }
    return value / unitsPerG
  }

  /// Whether the hub reports by a sensitivity read back as `g`: more than nothing, and no
  /// coarser than `largestAccepted`.
  package static func accepts(_ g: Double) -> Bool { g > 0 && g <= largestAccepted * (1 + 1e-9) }

  /// The report rate to ask for, given the rate the device has now (`current`, in Hz), or nil
  /// to leave it: a rate is never lowered.
  package static func movingRate(current: Double) -> Double? { current < movingHertz ? movingHertz : nil }

  /// What a hub had before orientd set it, to put back.
  package struct Originals: Equatable, Sendable {
    /// `in_accel_hysteresis` as read.
    package var sensitivity: String
    /// The rate as read, or nil when the rate is left alone.
    package var rate: String?

    package init(sensitivity: String, rate: String?) {
      self.sensitivity = sensitivity
      self.rate = rate
    }
  }

  /// What to write to a hub, and what to put back later.
  package struct Plan: Equatable, Sendable {
    /// The sensitivity to write.
    package var sensitivity: String
    /// The fast rate to write, or nil to leave the rate alone (it is fast enough).
    package var fastRate: String?
    /// The rates, in Hz: the fast one, and the slow one (the rate before orientd's).
    package var fastHertz: Double
    package var slowHertz: Double
    /// What goes back when capture stops.
    package var originals: Originals
  }

  /// The plan for a hub whose `in_accel_hysteresis` reads `sensitivity` and whose rate reads
  /// `rate` now, or nil when the rate is no rate. `remembered` is what an earlier set-up of
  /// the same device found, when the sensor was lost without putting it back: the device may
  /// still hold orientd's values, which must not pass for the hub's own.
  package func plan(sensitivity: String, rate: String, remembered: Originals?) -> Plan? {
    guard let rateNow = NumberParsing.finiteDouble(rate.trimmingSpaces), rateNow > 0 else { return nil }
    let originalRate = remembered?.rate ?? rate
    // The rate before orientd's, which the fast one is chosen against and the slow one is.
    let slow = NumberParsing.finiteDouble(originalRate.trimmingSpaces) ?? rateNow
    let fast = Self.movingRate(current: slow)
    return Plan(
      sensitivity: wantedText, fastRate: fast.map(Self.text), fastHertz: fast ?? slow, slowHertz: slow,
      originals: Originals(
        sensitivity: remembered?.sensitivity ?? sensitivity, rate: fast == nil ? nil : originalRate))
  }

  /// The attribute's units in one g.
  private var unitsPerG: Double { unit == .standardGravity ? 1 : standardGravity }

  /// `value` to six decimals (the kernel reads micro-units), without trailing zeros: `25`, `0.05`.
  package static func text(_ value: Double) -> String {
    var text = DecimalFormatting.fixed(value, decimals: 6)
    while text.hasSuffix("0") { text.removeLast() }
    if text.hasSuffix(".") { text.removeLast() }
    return text
  }

  /// Whether `value` is a power of ten (10^-9 to 10^9), to a millionth.
  static func isPowerOfTen(_ value: Double) -> Bool {
    var power = 1e-9
    while power <= 1e9 {
      if abs(value / power - 1) < 1e-6 { return true }
      power *= 10
    }
    return false
  }
}
