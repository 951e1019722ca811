import Testing

@testable import OrientCore

/// The Intel hinge driver's scale: radians a count, a count being a degree.
private let driverScale = 0.017453293

/// A device named `name` with the hinge driver's angle files (and a scan element and its own
/// trigger when `buffered`).
private func hingeDevice(name: String = "hinge", label: String? = "hinge\n", buffered: Bool = false)
  -> SensorDeviceFacts
{
  var facts = SensorDeviceFacts(source: .iio(id: "iio:device4", name: name))
  facts.files = ["in_angl0_raw"]
  if buffered {
    facts.scanElements = ["angl0"]
    facts.ownTrigger = "hinge-dev4"
  }
  facts.angleLabel = label
  return facts
}

@Suite("The hinge sensor: found on the Intel hinge driver's device, its angle in degrees")
struct HingeSensorTests {
  @Test("A count through the driver's scale is a degree; published when the whole degree moves")
  func conversion() {
    var model = HingeSensorModel(scale: driverScale)
    let published = [172.0, 172, 172.4, 173, 250, 360, 0].map { model.take(raw: $0) }
    #expect(
      published == [
        .success(.hinge(degrees: 172)), .success(nil), .success(nil), .success(.hinge(degrees: 173)),
        .success(.hinge(degrees: 250)), .success(.hinge(degrees: 360)), .success(.hinge(degrees: 0)),
      ])
    model.reset()
    #expect(model.take(raw: 0) == .success(.hinge(degrees: 0)), "a sensor started again publishes afresh")
  }

  @Test("An offset adds to the count before the scale; a scale in degrees' radians of another size converts")
  func offsetAndScale() {
    // Half-degree counts, and an offset of 10 counts.
    var model = HingeSensorModel(scale: driverScale / 2, offset: 10)
    #expect(model.take(raw: 350) == .success(.hinge(degrees: 180)))
  }

  @Test("A reading outside 0 to 360 degrees, or not a number, is refused and changes nothing")
  func outOfRange() throws {
    var model = HingeSensorModel(scale: driverScale)
    #expect(model.take(raw: 100) == .success(.hinge(degrees: 100)))
    for raw in [-3.0, 400, 65535, .nan, .infinity] {
      guard case .failure(let error) = model.take(raw: raw) else {
        Issue.record("\(raw) was taken")
        continue
      }
      #expect(error.message.hasSuffix("not a hinge angle (0 to 360)"), "\(error.message)")
    }
    #expect(model.take(raw: 100) == .success(nil), "the refused readings left the published angle alone")
  }

  @Test(
    "The hinge driver's device is a hinge sensor, polled through in_angl0_raw or buffered with its trigger")
  func inventory() throws {
    let polled = SensorInventory.findings([hingeDevice()])
    #expect(polled.count == 1)
    #expect(polled.first?.kind == .hinge && polled.first?.chosen == true)
    #expect(
      polled.first?.plan?.poll
        == ReadingChannels.Polled(file: "in_angl0_raw", prefix: "in_angl0", processed: false))
    #expect(polled.first?.plan?.scan == nil)
    let buffered = try #require(SensorInventory.findings([hingeDevice(buffered: true)]).first)
    #expect(buffered.plan?.scan?.channel == "angl0" && buffered.plan?.scan?.trigger == "hinge-dev4")
    #expect(ReadingChannels.scaleFiles("in_angl0") == ["in_angl0_scale", "in_angl_scale"])
  }

  @Test(
    "An angle on a device not named hinge is no hinge; one whose first angle is labelled otherwise says why")
  func notAHinge() {
    #expect(SensorInventory.findings([hingeDevice(name: "ad2s1210")]).isEmpty)
    let relabelled = SensorInventory.findings([hingeDevice(label: "screen\n")])
    #expect(relabelled.count == 1 && relabelled.first?.plan == nil && relabelled.first?.chosen == false)
    #expect(
      relabelled.first?.problem
        == "its in_angl0 is labelled 'screen', not 'hinge': not the layout of the Intel hinge driver")
    #expect(
      SensorInventory.findings([hingeDevice(label: nil)]).first?.chosen == true, "a driver without labels")
  }
}
