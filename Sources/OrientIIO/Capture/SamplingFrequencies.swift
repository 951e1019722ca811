import OrientCore
import OrientSystem

/// Raises an accelerometer's sampling frequencies for capture, and puts them back.
///
/// A sensor left at 1 Hz holds each value for a second: polled every 200 ms it gives stale
/// readings, and through a buffer it delivers one scan a second. Polling and buffered
/// capture both raise it here, to the lowest rate the device offers at or above what the
/// poll interval needs, and at least 10 Hz (as iio-sensor-proxy asks for). The rate stays
/// raised while orientd switches between the two, and goes back when it stops.
package final class SamplingFrequencies {
  /// The lowest rate asked for, in Hz.
  static let minimumHertz = 10.0

  private let accelerometer: Accelerometer
  private var originals: [(file: String, value: String)] = []
  /// What was changed, e.g. `sampling_frequency 5 -> 20 Hz`, for the log.
  package let changes: [String]

  /// The rate that gives a fresh value at each poll every `interval`, and at least 10 Hz, in Hz.
  package static func needed(interval: Duration) -> Double {
    max(minimumHertz, (Duration.seconds(1) / max(interval, .milliseconds(1))).rounded(.up))
  }

  /// Raises every `*sampling_frequency` attribute of `accelerometer` that is below `hertz`.
  ///
  /// `remembered` holds the originals of an earlier set-up of this same device that was cut
  /// short (a read error, a network hiccup) without putting them back: its rates may still be
  /// the raised ones, which must not pass for the driver's own.
  package init(raising accelerometer: Accelerometer, to hertz: Double, remembered: [String: String] = [:]) {
    self.accelerometer = accelerometer
    let device = accelerometer.device
    var originals: [(file: String, value: String)] = []
    var changes: [String] = []
    for file in device.attributeFiles.sorted() where file.hasSuffix("sampling_frequency") {
      guard case .text(let text) = device.read(file),
        let current = NumberParsing.finiteDouble(text.trimmingSpaces)
      else { continue }
      let original = remembered[file] ?? text
      var available: String?
      if case .text(let list) = device.read(file + "_available") { available = list }
      guard let target = Self.target(current: current, needed: hertz, available: available) else {
        // Still raised from before: nothing to write now, the original to put back later.
        if original != text { originals.append((file, original)) }
        continue
      }
      let value = Self.format(target)
      if let code = device.write(file, value) {
        Log.warning("\(accelerometer.summary): cannot raise \(file) from \(text) to \(value): \(code)")
        continue
      }
      originals.append((file, original))
      changes.append("\(file) \(text) -> \(value) Hz")
    }
    self.originals = originals
    self.changes = changes
  }

  /// The original rates by file, to hand to the next set-up of the same device.
  package var originalRates: [String: String] {
    Dictionary(originals.map { ($0.file, $0.value) }, uniquingKeysWith: { first, _ in first })
  }

  deinit { restore() }

  /// Writes the original rates back.
  package func restore() {
    for (file, value) in originals { accelerometer.device.write(file, value) }
    originals = []
  }

  /// Drops the original rates without writing them, when the device cannot be written to
  /// now; `originalRates` keeps them for the next set-up.
  package func forget() { originals = [] }

  /// The rate to set, or nil to leave `current` alone.
  ///
  /// `available` is the device's `*_available` text: a list of rates (`1 5 20 50`) or a
  /// range (`[min step max]`), as the kernel's IIO ABI allows. The lowest offered rate at
  /// or above `needed` wins, else the highest offered; `needed` itself when nothing is
  /// offered. A rate is never lowered.
  package static func target(current: Double, needed: Double, available: String?) -> Double? {
    guard current < needed else { return nil }
    let text = available?.trimmingSpaces ?? ""
    let chosen: Double
    if text.hasPrefix("["), text.hasSuffix("]") {
      let bounds = text.dropFirst().dropLast().split(separator: " ").compactMap {
        NumberParsing.finiteDouble($0)
      }
      guard bounds.count == 3, bounds[0] <= bounds[2] else { return needed }
      let (low, step, high) = (bounds[0], bounds[1], bounds[2])
      if needed <= low {
        chosen = low
      } else if step > 0 {
        // Rounded to a millionth: steps such as 0.1 do not add up exactly.
        chosen = min(high, ((low + ((needed - low) / step).rounded(.up) * step) * 1e6).rounded() / 1e6)
      } else {
        chosen = high
      }
    } else {
      let rates = text.split(whereSeparator: { $0 == " " || $0 == "\n" || $0 == "\t" })
        .compactMap { NumberParsing.finiteDouble($0) }.filter { $0 > 0 }.sorted()
      guard let highest = rates.last else { return needed }
      chosen = rates.first(where: { $0 >= needed }) ?? highest
    }
    return chosen > current ? chosen : nil
  }

  /// A rate as the attribute takes it: `20`, or `12.5`.
  static func format(_ hertz: Double) -> String {
    // `Int(exactly:)`, not `Int(_:)`: the rates come from the device, and one past Int's
    // range would trap.
    if let whole = Int(exactly: hertz) { return String(whole) }
    var text = DecimalFormatting.fixed(hertz, decimals: 6)
    while text.hasSuffix("0") { text.removeLast() }
    return text
  }
}
