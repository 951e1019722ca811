import OrientCore
import Testing

@Suite("Converting raw readings to g")
struct ConversionTests {
  @Test("A raw reading times the scale, divided by standard gravity, gives g")
  func scaleOnly() {
    let axis = AxisCalibration(scale: 0.038307)
    #expect(abs(axis.gravity(raw: -256) - (-256 * 0.038307 / 9.80665)) < 1e-12)
    #expect(abs(axis.gravity(raw: -256) + 1) < 0.001)
  }

  @Test("The offset is added to the raw value before scaling")
  func offsetBeforeScale() {
    let axis = AxisCalibration(scale: 2, offset: 10)
    #expect(abs(axis.gravity(raw: 5) - 15 * 2 / 9.80665) < 1e-12)
  }

  @Test("Each axis keeps its own scale and offset")
  func perAxis() {
    let converter = SampleConverter(
      x: AxisCalibration(scale: 9.80665 / 100), y: AxisCalibration(scale: 9.80665 / 50, offset: -10),
      z: AxisCalibration(scale: 9.80665), mountMatrix: .identity)
    let vector = converter.corrected(rawX: 100, rawY: 60, rawZ: 0)
    #expect(approximatelyEqual(vector, Vector3(1, 1, 0)))
  }

  @Test("The mount matrix applies after conversion to g")
  func matrixAfterConversion() throws {
    let matrix = try MountMatrix.parse("0, 1, 0; -1, 0, 0; 0, 0, 1")
    let converter = SampleConverter(
      x: AxisCalibration(scale: 9.80665 / 256), y: AxisCalibration(scale: 1),
      z: AxisCalibration(scale: 1), mountMatrix: matrix)
    let vector = converter.corrected(rawX: 256, rawY: 0, rawZ: 0)
    #expect(approximatelyEqual(vector, Vector3(0, -1, 0)))
    #expect(approximatelyEqual(converter.uncorrected(rawX: 256, rawY: 0, rawZ: 0), Vector3(1, 0, 0)))
  }
}

@Suite("Turning away readings that cannot be gravity")
struct PlausibleReadingTests {
  /// One g per 100 raw units on every axis.
  let converter = SampleConverter(
    x: AxisCalibration(scale: 9.80665 / 100), y: AxisCalibration(scale: 9.80665 / 100),
    z: AxisCalibration(scale: 9.80665 / 100), mountMatrix: .identity)

  @Test("A reading within 32 g on every axis becomes a sample at its time, before and after the matrix")
  func withinTheLimit() throws {
    let time = SampleTime(sinceOrigin: .milliseconds(1500))
    let sample = try #require(converter.sample(rawX: 3200, rawY: -3200, rawZ: 100, at: time))
    #expect(sample.time == time)
    #expect(approximatelyEqual(sample.raw, Vector3(32, -32, 1)))
    #expect(approximatelyEqual(sample.gravity, Vector3(32, -32, 1)))
  }

  @Test("A reading beyond 32 g on any one axis is turned away", arguments: [0, 1, 2])
  func beyondTheLimit(axis: Int) {
    var raw = [0.0, -100, 0]
    raw[axis] = axis == 1 ? -3201 : 3201
    #expect(converter.sample(rawX: raw[0], rawY: raw[1], rawZ: raw[2], at: .zero) == nil)
  }

  @Test(
    "Without a scale the limit in g means nothing: counts of about 1000 to the g pass, what is not finite does not"
  )
  func unscaledCounts() throws {
    let unscaled = SampleConverter(
      x: AxisCalibration(scale: 1), y: AxisCalibration(scale: 1), z: AxisCalibration(scale: 1),
      mountMatrix: .identity, scaleKnown: false)
    // A scan of iio-sensor-proxy's recordings: about 93 g if the counts were m/s².
    let sample = try #require(unscaled.sample(rawX: 103, rawY: -919, rawZ: -385, at: .zero))
    #expect(approximatelyEqual(sample.gravity, Vector3(103 / 9.80665, -919 / 9.80665, -385 / 9.80665)))
    #expect(unscaled.sample(rawX: .nan, rawY: 0, rawZ: 0, at: .zero) == nil)
    var scaled = unscaled
    scaled.scaleKnown = true
    #expect(scaled.sample(rawX: 103, rawY: -919, rawZ: -385, at: .zero) == nil)
  }

  @Test("A reading that is not a finite number is turned away")
  func notFinite() {
    #expect(converter.sample(rawX: .nan, rawY: 0, rawZ: 0, at: .zero) == nil)
    #expect(converter.sample(rawX: 0, rawY: .infinity, rawZ: 0, at: .zero) == nil)
  }

  @Test("A plausible reading that a huge mount matrix turns into infinity is turned away")
  func matrixOverflow() {
    var huge = converter
    huge.mountMatrix = Matrix3(rows: Vector3(1e308, 1e308, 0), Vector3(0, 1, 0), Vector3(0, 0, 1))
    #expect(huge.sample(rawX: 100, rawY: 100, rawZ: 0, at: .zero) == nil)
    #expect(converter.sample(rawX: 100, rawY: 100, rawZ: 0, at: .zero) != nil)
  }
}
