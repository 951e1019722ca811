/// A reading sensor's pure model: the raw readings its driver captures go in, the values to
/// publish come out. One per kind (`LightModel`, `ProximityModel`, `CompassModel`), whatever
/// the capture path.
package protocol ReadingModel: Sendable {
  /// Takes one raw reading: the value to publish now, nil when it changes nothing clients
  /// should hear of, or why the reading is unusable (logged, naming the device; the sensor
  /// goes on being read).
  mutating func take(raw: Double) -> Result<ReadingValue?, ValueError>
  /// The sensor stopped: its next reading is published whatever it is.
  mutating func reset()
}

/// The ambient light sensor: a reading becomes a level (`LightConversion`), and only levels
/// beyond the sensor's noise are published (`LightFilter`).
package struct LightModel: ReadingModel {
  package let conversion: LightConversion
  private var filter: LightFilter

  package init(conversion: LightConversion) {
    self.conversion = conversion
    filter = LightFilter(resolution: conversion.resolution)
  }

  package mutating func take(raw: Double) -> Result<ReadingValue?, ValueError> {
    conversion.level(raw: raw).map { take(level: $0) }
  }

  /// Takes a level already worked out (hwmon's light file).
  package mutating func take(level: LightLevel) -> ReadingValue? { filter.take(level).map { .light($0) } }

  package mutating func reset() { filter.reset() }
}

/// The proximity sensor: near or far (`ProximityDetector`), published when it changes.
package struct ProximityModel: ReadingModel {
  private var detector: ProximityDetector
  private var published: Bool?

  package init(rule: ProximityDetector.Rule) { detector = ProximityDetector(rule: rule) }

  package mutating func take(raw: Double) -> Result<ReadingValue?, ValueError> {
    guard raw.isFinite else { return .failure(ValueError("reading \(raw) is not a number")) }
    return .success(take(near: detector.take(raw)))
  }

  /// Takes whether something is near, as a switch says it.
  package mutating func take(near: Bool) -> ReadingValue? {
    guard near != published else { return nil }
    published = near
    return .proximity(near: near)
  }

  package mutating func reset() {
    detector.reset()
    published = nil
  }
}

/// The compass: a reading is degrees through its scale and offset, `(raw + offset) * scale`,
/// published when it moves by a degree or more (`HeadingFilter`).
package struct CompassModel: ReadingModel {
  package let scale: Double
  package let offset: Double
  private var filter = HeadingFilter()

  package init(scale: Double = 1, offset: Double = 0) {
    self.scale = scale
    self.offset = offset
  }

  package mutating func take(raw: Double) -> Result<ReadingValue?, ValueError> {
    let degrees = (raw + offset) * scale
    guard HeadingFilter.normalized(degrees) != nil else {
      return .failure(ValueError("reading \(raw) is not a heading"))
    }
    return .success(filter.take(degrees).map { .heading($0) })
  }

  package mutating func reset() { filter.reset() }
}

/// The hinge sensor: a reading is radians through its scale and offset, `(raw + offset) *
/// scale`, as the kernel's ABI has angles, and is published in whole degrees from 0 (closed)
/// through 180 (open flat) to 360 (folded back) when the whole degree changes. The sensor
/// measures the hinge itself: unlike two accelerometers' angle, closed and folded back read
/// apart, and the angle holds wherever gravity lies. What the angle means for the mode is
/// `TabletModeState`'s to decide.
package struct HingeSensorModel: ReadingModel {
  /// One degree in radians: the scale of the Intel hinge driver, whose counts are degrees.
  package static let degreeInRadians = Double.pi / 180

  package let scale: Double
  package let offset: Double
  private var published: Int?

  package init(scale: Double = degreeInRadians, offset: Double = 0) {
    self.scale = scale
    self.offset = offset
  }

  package mutating func take(raw: Double) -> Result<ReadingValue?, ValueError> {
    let degrees = (raw + offset) * scale / Self.degreeInRadians
    guard degrees.isFinite, degrees > -0.5, degrees < 360.5 else {
      let reading = raw.isFinite ? DecimalFormatting.trimmed(raw, decimals: 3) : "\(raw)"
      let shown = degrees.isFinite ? DecimalFormatting.trimmed(degrees, decimals: 1) : "\(degrees)"
      return .failure(ValueError("reading \(reading) is \(shown) degrees, not a hinge angle (0 to 360)"))
    }
    let whole = Int(degrees.rounded())
    guard whole != published else { return .success(nil) }
    published = whole
    return .success(.hinge(degrees: whole))
  }

  package mutating func reset() { published = nil }
}
