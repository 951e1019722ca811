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
