import Testing

@testable import OrientCore

/// The failure's message, or nil for a success.
private func failure<Value>(_ result: Result<Value, ValueError>) -> String? {
  if case .failure(let error) = result { return error.message }
  return nil
}

@Suite("Light readings into levels: processed, raw through scale and offset, and Apple's hwmon file")
struct LightConversionTests {
  @Test("A processed value is the level as it is: scale and offset do not apply")
  func processed() throws {
    let conversion = LightConversion(processed: true, scale: 0.5, offset: 10)
    #expect(try conversion.level(raw: 350.5).get() == LightLevel(350.5, unit: .lux))
    #expect(try conversion.level(raw: 0).get() == LightLevel(0, unit: .lux))
    #expect(conversion.resolution == 0, "a processed value's steps are the driver's")
  }

  @Test("A raw value is (raw + offset) * scale, in the conversion's unit")
  func raw() throws {
    let conversion = LightConversion(processed: false, scale: 0.25, offset: 4)
    #expect(try conversion.level(raw: 100).get() == LightLevel(26, unit: .lux))
    #expect(
      try conversion.level(raw: -4).get() == LightLevel(0, unit: .lux), "an offset may lift a negative raw")
    #expect(conversion.resolution == 0.25)
    let vendor = LightConversion(processed: false, scale: 2, unit: .vendor)
    #expect(try vendor.level(raw: 21).get() == LightLevel(42, unit: .vendor))
    #expect(LightConversion(processed: false, scale: -0.5).resolution == 0.5)
  }

  @Test("The defaults are scale 1, offset 0, lux")
  func defaults() throws {
    let conversion = LightConversion(processed: false)
    #expect(conversion.scale == 1 && conversion.offset == 0 && conversion.unit == .lux)
    #expect(try conversion.level(raw: 123).get() == LightLevel(123, unit: .lux))
  }

  @Test("A reading that makes a negative level is a failure that says so")
  func negative() {
    #expect(
      failure(LightConversion(processed: true).level(raw: -5)) == "reading -5 gives a negative light level")
    #expect(
      failure(LightConversion(processed: false, offset: -10).level(raw: 2.5))
        == "reading 2.5 gives a negative light level")
    #expect(
      failure(LightConversion(processed: false, scale: -1).level(raw: 3))
        == "reading 3 gives a negative light level")
  }

  @Test(
    "A reading that is not a finite number is a failure naming it",
    arguments: [(Double.nan, "nan"), (.infinity, "inf"), (-.infinity, "-inf")])
  func notANumber(raw: Double, spelled: String) {
    #expect(failure(LightConversion(processed: true).level(raw: raw)) == "reading \(spelled) is not a number")
    #expect(
      failure(LightConversion(processed: false).level(raw: raw)) == "reading \(spelled) is not a number")
  }

  @Test("A finite reading whose level overflows is a failure that does not call it negative")
  func overflow() {
    let conversion = LightConversion(processed: false, scale: 10)
    let message = failure(conversion.level(raw: 1e308))
    #expect(message == "reading 1e+308 gives no finite light level", "message: \(message ?? "none")")
  }

  @Test("Apple's hwmon light file: the larger of two readings as a percentage of 255, vendor units")
  func hwmon() throws {
    let level = try LightConversion.hwmonLevel("(128,128)").get()
    #expect(level.unit == .vendor)
    #expect(abs(level.value - 50.196_078_431) < 1e-9)
    #expect(try LightConversion.hwmonLevel("(0,0)").get() == LightLevel(0, unit: .vendor))
    #expect(try LightConversion.hwmonLevel("(255,12)").get() == LightLevel(100, unit: .vendor))
    #expect(try LightConversion.hwmonLevel("(12,255)").get() == LightLevel(100, unit: .vendor))
    #expect(try LightConversion.hwmonLevel("(51,0)").get() == LightLevel(20, unit: .vendor))
    #expect(
      try LightConversion.hwmonLevel("  (51, 0)\n").get() == LightLevel(20, unit: .vendor), "blanks around")
  }

  @Test(
    "Malformed hwmon text is a failure that quotes it",
    arguments: [
      "", "12,34", "(12,34", "12,34)", "(12)", "(1,2,3)", "(,3)", "(a,b)", "(256,0)", "(0,-1)", "(1.5,2)",
    ])
  func hwmonMalformed(text: String) {
    let message = failure(LightConversion.hwmonLevel(text))
    #expect(message != nil, "'\(text)' was taken")
    #expect(message?.hasPrefix("'\(text)' is not (LEFT,RIGHT)") == true, "message: \(message ?? "none")")
  }

  @Test("Unprintable bytes in hwmon text are not copied into the message")
  func hwmonUnprintable() {
    let message = failure(LightConversion.hwmonLevel("(1\u{1B}[2J,2)"))
    #expect(message != nil)
    #expect(message?.contains("\u{1B}") == false)
  }
}
