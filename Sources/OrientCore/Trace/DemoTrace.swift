/// The built-in demo: a device turned through all six orientations, sampled every 100 ms.
///
/// Each pose is held for 2 s and reached by a 1 s rotation through the
/// positions in between, so the demo shows hysteresis and settle at work.
package enum DemoTrace {
  /// The poses in order; the last one leads back to the first when looping.
  package static let poses: [DeviceOrientation] = [
    .normal, .leftUp, .bottomUp, .rightUp, .normal, .faceUp, .faceDown,
  ]

  /// The time between samples.
  package static let step = Duration.milliseconds(100)
  /// Samples a pose is held for.
  static let holdSteps = 20
  /// Samples a turn between two poses takes.
  static let turnSteps = 10

  /// One loop of the demo, starting at time 0.
  package static let samples: [TraceSample] = {
    var result: [TraceSample] = []
    var time = SampleTime.zero
    func emit(_ gravity: Vector3) {
      result.append(TraceSample(time: time, gravity: gravity))
      time = time + step
    }
    for (index, pose) in poses.enumerated() {
      let next = poses[(index + 1) % poses.count]
      for _ in 0..<holdSteps { emit(pose.gravity) }
      for turn in 1...turnSteps {
        emit(direction(from: pose.gravity, to: next.gravity, fraction: Double(turn) / Double(turnSteps + 1)))
      }
    }
    return result
  }()

  /// The length of one loop, the time offset of each next loop.
  package static var loopLength: Duration { step * samples.count }

  /// A unit vector between two unit vectors; opposite ones turn through a perpendicular axis.
  static func direction(from a: Vector3, to b: Vector3, fraction: Double) -> Vector3 {
    if a.dot(b) < -0.99 {
      let middle = Vector3(a.z == 0 ? 0 : 1, 0, a.z == 0 ? 1 : 0)
      return fraction < 0.5
        ? direction(from: a, to: middle, fraction: fraction * 2)
        : direction(from: middle, to: b, fraction: (fraction - 0.5) * 2)
    }
    let mixed = Vector3(
      a.x + (b.x - a.x) * fraction, a.y + (b.y - a.y) * fraction, a.z + (b.z - a.z) * fraction)
    let length = mixed.magnitude
    return Vector3(mixed.x / length, mixed.y / length, mixed.z / length)
  }
}
