import Testing

@testable import OrientCore

@Suite("A sensor hub's change sensitivity and report rate")
struct ChangeSensitivityTests {
  @Test("A hub in g (scale 9.80665 times a power of ten) is asked for 0.05, which is 0.05 g")
  func hubInG() throws {
    for scale in [0.00980665, 0.0980665, 0.000980665, 9.80665] {
      let sensitivity = try #require(ChangeSensitivity(driver: "accel_3d", scale: scale), "scale \(scale)")
      #expect(sensitivity.unit == .standardGravity)
      #expect(sensitivity.wantedText == "0.05")
      #expect(sensitivity.g(fromAttribute: "0.050000") == 0.05)
    }
  }

  @Test("A hub that declares m/s² (a scale that is a power of ten) is asked for 0.05 g in m/s²")
  func hubInMetresPerSecondSquared() throws {
    let sensitivity = try #require(ChangeSensitivity(driver: "accel_3d", scale: 0.01))
    #expect(sensitivity.unit == .metresPerSecondSquared)
    #expect(sensitivity.wantedText == "0.490333")
    #expect(abs(try #require(sensitivity.g(fromAttribute: "0.490000")) - 0.04997) < 1e-5)
  }

  @Test("Another driver, or a scale of no known unit, is left alone")
  func unknownUnits() {
    // 256 raw units a g: neither 9.80665 nor 1 times a power of ten.
    #expect(ChangeSensitivity(driver: "accel_3d", scale: 0.038307) == nil)
    #expect(ChangeSensitivity(driver: "accel_3d", scale: 0) == nil)
    #expect(ChangeSensitivity(driver: "accel_3d", scale: -0.00980665) == nil)
    #expect(ChangeSensitivity(driver: "accel_3d", scale: .infinity) == nil)
    #expect(ChangeSensitivity(driver: "bmc150_accel", scale: 0.00980665) == nil)
    #expect(ChangeSensitivity(driver: "", scale: 0.01) == nil)
  }

  @Test("What the hub read back is taken when it is more than nothing and no coarser than 0.1 g")
  func readBack() throws {
    let sensitivity = try #require(ChangeSensitivity(driver: "accel_3d", scale: 0.00980665))
    for (text, taken) in [
      ("0.050000", true), ("0.100000", true), ("0.010000", true),
      // A field whose exponent is too coarse for 0.05: the kernel wrote 0.
      ("0.000000", false), ("0.200000", false), ("1", false),
    ] {
      let g = try #require(sensitivity.g(fromAttribute: text))
      #expect(ChangeSensitivity.accepts(g) == taken, "\(text)")
    }
    for garbage in ["", "abc", "-0.05", "nan"] {
      #expect(sensitivity.g(fromAttribute: garbage) == nil, "'\(garbage)'")
    }
  }

  @Test("A hub at its own 10 Hz gets 25 Hz, and its own sensitivity and rate go back")
  func planAtTheHubsOwn() throws {
    let sensitivity = try #require(ChangeSensitivity(driver: "accel_3d", scale: 0.00980665))
    #expect(
      sensitivity.plan(sensitivity: "0.000000", rate: "10.000000", remembered: nil)
        == ChangeSensitivity.Plan(
          sensitivity: "0.05", fastRate: "25", fastHertz: 25, slowHertz: 10,
          originals: ChangeSensitivity.Originals(sensitivity: "0.000000", rate: "10.000000")))
    // Already faster: the rate is left alone, and not put back.
    #expect(
      sensitivity.plan(sensitivity: "0.000000", rate: "50.000000", remembered: nil)
        == ChangeSensitivity.Plan(
          sensitivity: "0.05", fastRate: nil, fastHertz: 50, slowHertz: 50,
          originals: ChangeSensitivity.Originals(sensitivity: "0.000000", rate: nil)))
    #expect(sensitivity.plan(sensitivity: "0.000000", rate: "fast", remembered: nil) == nil)
    #expect(sensitivity.plan(sensitivity: "0.000000", rate: "0", remembered: nil) == nil)
  }

  @Test("A sensor found again still holding orientd's values gets the hub's own back, not orientd's")
  func planAfterALoss() throws {
    let sensitivity = try #require(ChangeSensitivity(driver: "accel_3d", scale: 0.00980665))
    let own = ChangeSensitivity.Originals(sensitivity: "0.000000", rate: "10.000000")
    let plan = try #require(sensitivity.plan(sensitivity: "0.050000", rate: "25.000000", remembered: own))
    #expect(plan.originals == own)
    #expect(plan.fastRate == "25")
    #expect(plan.slowHertz == 10)
  }

  @Test("The rate is raised to 25 Hz, and never lowered")
  func movingRate() {
    #expect(ChangeSensitivity.movingRate(current: 10) == 25)
    #expect(ChangeSensitivity.movingRate(current: 20.8) == 25)
    #expect(ChangeSensitivity.movingRate(current: 25) == nil)
    #expect(ChangeSensitivity.movingRate(current: 50) == nil)
    #expect(ChangeSensitivity.text(25) == "25")
    #expect(ChangeSensitivity.text(20.8) == "20.8")
  }
}
