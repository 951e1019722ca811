import Glibc

@testable import OrientCore

/// A unit vector in the upright (x-y) plane, tilted `degrees` from normal towards left-up.
func uprightTilt(degrees: Double) -> Vector3 {
  let radians = degrees * Double.pi / 180
  return Vector3(sin(radians), -cos(radians), 0)
}

/// A unit vector tilted `degrees` from upright normal back towards lying face-up.
func backwardTilt(degrees: Double) -> Vector3 {
  let radians = degrees * Double.pi / 180
  return Vector3(0, -cos(radians), -sin(radians))
}

/// Settings with no settle time, so each sample decides at once.
let instant = ClassifierSettings(threshold: 0.6, hysteresis: 0.1, shakeTolerance: 0.4, settle: .zero)

/// The default settings with a 300 ms settle: the timings of the settle tests are written
/// for it (the default settle was 300 ms until polls sped up while a change is pending).
let settle300 = ClassifierSettings(
  threshold: 0.6, hysteresis: 0.1, shakeTolerance: 0.4, settle: .milliseconds(300))

/// Feeds samples one millisecond apart and returns the orientation after each.
func classify(_ vectors: [Vector3], settings: ClassifierSettings = instant) -> [DeviceOrientation?] {
  var classifier = OrientationClassifier(settings: settings)
  return vectors.enumerated().map { index, vector in
    _ = classifier.classify(vector, at: SampleTime(milliseconds: Int64(index))).changed
    return classifier.current
  }
}

func approximatelyEqual(_ a: Vector3, _ b: Vector3, tolerance: Double = 1e-9) -> Bool {
  abs(a.x - b.x) <= tolerance && abs(a.y - b.y) <= tolerance && abs(a.z - b.z) <= tolerance
}
