/// What the switches say: nil where there is no such switch.
package struct SwitchReadings: Equatable, Sendable {
  /// True in tablet mode; nil without a tablet-mode switch.
  package var tablet: Bool?
  /// True when the lid is closed; nil without a lid switch.
  package var lid: Bool?

  /// Readings with the given values.
  init(tablet: Bool? = nil, lid: Bool? = nil) {
    self.tablet = tablet
    self.lid = lid
  }
}
