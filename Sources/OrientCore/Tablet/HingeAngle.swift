import Glibc

/// The lid angle of a convertible from the gravity vectors of its display (lid) and base
/// accelerometers, as ChromeOS works it out.
///
/// Both vectors are in their sensors' corrected frames (after their mount matrices). The
/// hinge is the x axis of both frames, and the base's frame reads as the display's does when
/// the device lies open flat at 180 degrees. Turning the lid about the hinge turns its
/// reading about x; the angle between the two readings' projections on the y-z plane is the
/// lid's opening less 180 degrees. With the base flat on a desk reading (0, 0, -1):
/// 90 degrees (a laptop, display upright) reads (0, -1, 0) on the lid, 180 reads (0, 0, -1),
/// 270 reads (0, 1, 0), and 360 (folded back, a tablet) reads (0, 0, 1). Turning the whole
/// device about any axis changes neither projection's angle to the other, only their
/// lengths: when gravity lies along the hinge both vanish and there is no angle.
package enum HingeAngle {
  /// The projections on the plane across the hinge must be at least this long (g) to give a
  /// direction: below it the hinge is vertical and the angle is noise.
  static let minimumProjection = 0.1

  /// The lid's opening in degrees, from 0 (closed) through 180 (flat) to 360 (folded back),
  /// in [0, 360); nil when gravity lies (almost) along the hinge. 0 and 360 read alike: a
  /// closed lid and one folded all the way back cannot be told apart from gravity alone.
  package static func degrees(lid: Vector3, base: Vector3) -> Double? {
    let lidLength = (lid.y * lid.y + lid.z * lid.z).squareRoot()
    let baseLength = (base.y * base.y + base.z * base.z).squareRoot()
    guard lidLength.isFinite, baseLength.isFinite, lidLength >= minimumProjection,
      baseLength >= minimumProjection
    else { return nil }
    // The signed angle from the base's projection to the lid's, about +x.
    let cross = base.y * lid.z - base.z * lid.y
    let dot = base.y * lid.y + base.z * lid.z
    let turn = Glibc.atan2(cross, dot) * 180 / Double.pi
    let angle = (180 + turn).truncatingRemainder(dividingBy: 360)
    return angle < 0 ? angle + 360 : angle
  }

  /// A base sensor's corrected reading turned into the frame `degrees` takes for the base.
  ///
  /// systemd's hwdb (60-sensor.hwdb) asks of a base sensor's `ACCEL_MOUNT_MATRIX` that,
  /// once both matrices are applied, the base reads as the display does with the lid
  /// closed (0 degrees); Chromebooks' cros-ec sensors read that way too. `degrees` takes the
  /// base's frame to read as the display's with the device open flat (180 degrees). The two
  /// frames are half a turn apart about the hinge: y and z change sign.
  package static func flatFrame(ofBase reading: Vector3) -> Vector3 {
    Vector3(reading.x, -reading.y, -reading.z)
  }

  /// How much of gravity lies along the hinge, in g: the larger of the two sensors' |x|.
  package static func alongHinge(lid: Vector3, base: Vector3) -> Double { max(abs(lid.x), abs(base.x)) }
}
