/// Whether a convertible is used as a tablet or as a laptop.
package enum TabletMode: String, CaseIterable, Sendable {
  case tablet
  case laptop
  /// No source says.
  case unknown
}
