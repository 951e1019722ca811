/// Turns a compass's readings into the heading published: degrees from magnetic north,
/// clockwise, from 0 to below 360, to a tenth of a degree.
///
/// A heading is published when it moves by at least `step` (1 degree) around the circle
/// from the one published: a magnetometer's jitter of a fraction of a degree does not make a
/// `PropertiesChanged` at each reading, and 359.5 to 0.2 is a move of 0.7 degrees, not 359.
/// Pure: readings in, headings to publish out.
package struct HeadingFilter: Equatable, Sendable {
  /// The smallest move published, in degrees.
  package static let step = 1.0

  /// The heading last published; nil before the first reading (or after `reset`).
  package private(set) var published: Double?

  package init() {}

  /// The heading of a reading already in degrees: wrapped into 0 to below 360 and rounded to
  /// a tenth. Nil for a value that is not a number.
  package static func normalized(_ degrees: Double) -> Double? {
    guard degrees.isFinite, abs(degrees) < 1e9 else { return nil }
    var wrapped = degrees.truncatingRemainder(dividingBy: 360)
    if wrapped < 0 { wrapped += 360 }
    let rounded = (wrapped * 10).rounded() / 10
    return rounded >= 360 ? 0 : rounded
  }

  /// Takes a heading in degrees; returns the heading to publish now, or nil.
  package mutating func take(_ degrees: Double) -> Double? {
    guard let heading = Self.normalized(degrees) else { return nil }
    if let last = published {
      let apart = abs(heading - last)
      // Headings are tenths: a move of one degree may come out a hair below 1.0.
      guard min(apart, 360 - apart) >= Self.step - 1e-9 else { return nil }
    }
    published = heading
    return heading
  }

  /// The compass stopped: its next reading is published whatever it is.
  package mutating func reset() { published = nil }
}
