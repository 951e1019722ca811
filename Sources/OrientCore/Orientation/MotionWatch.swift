/// Whether the gravity vector is moving, judged on the samples alone: the device is still
/// while every sample stays within `tolerance` (relative to the vector's length) of the one
/// that began the stillness, the anchor, and each sample that leaves that neighbourhood moves
/// and becomes the new anchor.
///
/// Comparing with the anchor rather than with the previous sample makes a slow, steady turn
/// count as movement (its samples drift away from the anchor however close each is to the one
/// before), while a sensor's noise, far below the tolerance, never does. The tolerance is
/// relative so that a sensor whose scale is wrong (a steady magnitude far from 1 g) is judged
/// alike. 0.05 is about 3 degrees: a hand turning a tablet moves that much in a few
/// hundredths of a second, and a sensor lying on a desk reads a few thousandths of a g of
/// noise.
///
/// Pure: times are the samples' own.
package struct MotionWatch: Equatable, Sendable {
  /// How far, relative to the anchor's length, a sample may be from the anchor and still be
  /// no movement.
  package static let tolerance = 0.05

  @usableFromInline var anchor: Vector3?
  @usableFromInline var anchoredAt = SampleTime.zero
  @usableFromInline var lastMove: SampleTime?

  /// A watch that has seen no sample.
  package init() {}

  /// Since when the samples have stayed near the anchor: the time of the sample that set it;
  /// nil before any sample.
  @inlinable
  package var stillSince: SampleTime? { anchor == nil ? nil : anchoredAt }

  /// The time of the last sample that moved; nil while none has (the first sample is no
  /// movement: there is nothing to compare it with).
  @inlinable
  package var movedAt: SampleTime? { lastMove }

  /// Takes a sample at `time`; returns whether it moved.
  @inlinable
  @discardableResult
  package mutating func add(_ gravity: Vector3, at time: SampleTime) -> Bool {
    guard let anchor else {
      self.anchor = gravity
      anchoredAt = time
      return false
    }
    let dx = gravity.x - anchor.x
    let dy = gravity.y - anchor.y
    let dz = gravity.z - anchor.z
    let distanceSquared = dx * dx + dy * dy + dz * dz
    let limit = Self.tolerance * Self.tolerance * anchor.magnitudeSquared
    // Not a number (a garbled reading) compares false and would never move: it moves.
    guard !(distanceSquared <= limit) else { return false }
    self.anchor = gravity
    anchoredAt = time
    lastMove = time
    return true
  }

  /// Forgets every sample: the next one anchors afresh.
  package mutating func reset() {
    anchor = nil
    lastMove = nil
  }
}
