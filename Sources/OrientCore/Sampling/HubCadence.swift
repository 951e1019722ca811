/// Whether a sensor hub honours the change sensitivity orientd set (`ChangeSensitivity`), and
/// which report interval it should have for that.
///
/// A hub that honours it sends a report only when a value moved by at least the sensitivity
/// since its last report: every scan differs from the one before by that much, and a resting
/// device sends none. Some firmware ignores the sensitivity and reports at every interval,
/// moving or not; at the fast interval orientd asked for, that would cost more wake-ups at rest
/// than the hub's own rate did. So the scans are watched: `quietScansToDecide` in a row that
/// stay within the sensitivity of the last move show a hub that ignores it. From then on the
/// hub reports at the slow rate (what it had before orientd asked for the fast one) while the
/// device rests, and at the fast rate again from the first scan that moves by the sensitivity,
/// until the device rests again for as many scans.
///
/// Moves are measured per axis in g, as the hub measures its fields, against the last scan
/// that moved (so a slow drift counts once it adds up to the sensitivity).
///
/// Pure: each scan carries its time, and returns what the shell does.
package struct HubCadence: Sendable {
  /// Scans in a row within the sensitivity that show a hub ignoring it, or a device at rest on
  /// such a hub: 0.4 s at 25 Hz. A hub that honours its sensitivity never sends one.
  package static let quietScansToDecide = 10

  /// What the shell does.
  package enum Action: Equatable, Sendable {
    /// Ask the hub for the fast report rate: the device moves.
    case reportFast
    /// Ask the hub for the slow report rate: the device rests on a hub that ignores its
    /// sensitivity.
    case reportSlow
    case log(LogNote)
  }

  /// Where the watch is.
  package enum State: Equatable, Sendable {
    /// The hub reports at the fast rate and is taken to honour its sensitivity; `quietScans`
    /// in a row so far stayed within it.
    case trusting(quietScans: Int)
    /// The hub ignores its sensitivity and the device rests: the slow rate.
    case resting
    /// The hub ignores its sensitivity and the device moves: the fast rate; `quietScans` in a
    /// row so far stayed within the sensitivity.
    case moving(quietScans: Int)
  }

  /// The sensitivity the hub was set to, in g (as read back).
  package let sensitivity: Double
  /// The sensor's one-line identity, for the log.
  private let summary: String
  /// The rates, in Hz, for the log.
  private let slowHertz: Double
  private let fastHertz: Double
  package private(set) var state: State
  /// The last scan that moved (the first scan, to begin with), in g.
  private var reference: Vector3?
  /// When the quiet scans in a row began.
  private var quietSince: SampleTime?

  /// A watch of a hub set to `sensitivity` g, reporting at `fastHertz` now and at `slowHertz`
  /// before orientd asked. `knownToIgnore`: the same hub was found to ignore its sensitivity
  /// before (capture paused and resumed): it is not said again, and the device is taken to move
  /// until it rests for `quietScansToDecide` scans.
  package init(
    sensitivity: Double, summary: String, slowHertz: Double, fastHertz: Double, knownToIgnore: Bool = false
  ) {
    self.sensitivity = sensitivity
    self.summary = summary
    self.slowHertz = slowHertz
    self.fastHertz = fastHertz
    state = knownToIgnore ? .moving(quietScans: 0) : .trusting(quietScans: 0)
  }

  /// Whether the hub has been found to ignore its sensitivity.
  package var ignoresSensitivity: Bool {
    if case .trusting = state { return false }
    return true
  }

  /// One scan from the buffer, each axis in g (raw times scale, in g; the offset and the mount
  /// matrix do not change a difference), taken at `time`.
  package mutating func scanned(_ reading: Vector3, at time: SampleTime) -> [Action] {
    guard let last = reference else {
      reference = reading
      return []
    }
    // The hub reports a move of at least the sensitivity; a hair below it is the same move,
    // as the hub's integers and these products of its scale round differently.
    let step = max(abs(reading.x - last.x), abs(reading.y - last.y), abs(reading.z - last.z))
    let moved = step >= sensitivity * (1 - 1e-6)
    if moved {
      reference = reading
      quietSince = nil
    } else if quietSince == nil {
      quietSince = time
    }
    switch state {
    case .trusting(let quiet):
      guard !moved else {
        state = .trusting(quietScans: 0)
        return []
      }
      guard quiet + 1 >= Self.quietScansToDecide else {
        state = .trusting(quietScans: quiet + 1)
        return []
      }
      state = .resting
      return (changesRate ? [.reportSlow] : []) + [.log(.warning(ignoredText(at: time)))]
    case .resting:
      guard moved else { return [] }
      state = .moving(quietScans: 0)
      return changesRate
        ? [.reportFast, .log(.debug("\(summary): the device moves: \(rateText(fastHertz))"))] : []
    case .moving(let quiet):
      guard !moved else {
        state = .moving(quietScans: 0)
        return []
      }
      guard quiet + 1 >= Self.quietScansToDecide else {
        state = .moving(quietScans: quiet + 1)
        return []
      }
      state = .resting
      return changesRate
        ? [.reportSlow, .log(.debug("\(summary): the device rests: \(rateText(slowHertz))"))] : []
    }
  }

  /// Whether the two rates differ, so that there is a rate to change.
  private var changesRate: Bool { fastHertz > slowHertz }

  private func rateText(_ hertz: Double) -> String {
    "the hub reports at \(ChangeSensitivity.text(hertz)) Hz"
  }

  private func ignoredText(at time: SampleTime) -> String {
    let span =
      quietSince.map {
        " in \(DecimalFormatting.fixed(Double((time - $0).wholeMilliseconds) / 1000, decimals: 2)) s"
      } ?? ""
    let plan =
      changesRate
      ? "it reports at \(ChangeSensitivity.text(slowHertz)) Hz while the device rests and at "
        + "\(ChangeSensitivity.text(fastHertz)) Hz while it moves"
      : "its report rate stays at \(ChangeSensitivity.text(slowHertz)) Hz"
    return "\(summary): the sensor hub ignores its change sensitivity of "
      + "\(ChangeSensitivity.text(sensitivity)) g (\(Self.quietScansToDecide) scans in a row within it\(span)); "
      + plan
  }
}
