/// What the hinge says, as the sampling thread reports it to the daemon's loop.
package struct HingeStatus: Equatable, Sendable {
  /// Whether both a display and a base accelerometer are attached and read, so the hinge is
  /// a mode source.
  package var available: Bool
  /// The mode the angle gives; `unknown` while unavailable or not yet decided.
  package var mode: TabletMode
  /// The last published angle in whole degrees (0 closed, 360 folded back), or nil.
  package var angle: Int?

  /// Creates a status.
  package init(available: Bool, mode: TabletMode = .unknown, angle: Int? = nil) {
    self.available = available
    self.mode = mode
    self.angle = angle
  }

  /// No hinge: one sensor, or none.
  package static let unavailable = HingeStatus(available: false)
}
