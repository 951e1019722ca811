import Testing

@testable import OrientCore

@Suite("Sensor kinds: their D-Bus names, state keys and order")
struct SensorKindTests {
  @Test("Claim and Release name kinds as iio-sensor-proxy does; the hinge sensor is never claimed")
  func busNames() {
    #expect(
      SensorKind.allCases.map(\.busName) == ["Accelerometer", "Light", "Proximity", "Compass", "Hinge"])
    for kind in SensorKind.allCases where kind != .hinge {
      #expect(SensorKind(busName: kind.busName) == kind)
    }
    #expect(SensorKind(busName: "Hinge") == nil)
    #expect(SensorKind(busName: "light") == nil)
    #expect(SensorKind(busName: "Heading") == nil)
  }

  @Test("Each reading kind publishes under its key, and the key leads back to it")
  func readingKeys() {
    #expect(SensorKind.readingKinds == [.light, .proximity, .compass])
    #expect(SensorKind.accelerometer.readingKey == nil)
    for kind in SensorKind.readingKinds {
      let key = kind.readingKey
      #expect(key != nil)
      #expect(key?.readingKind == kind)
    }
    #expect(SensorKind.compass.readingKey == .heading)
    #expect(SensorKind.hinge.readingKey == nil, "the hinge's angle is part of the orientation state")
    #expect(SensorKind.valueKinds == [.light, .proximity, .compass, .hinge])
  }

  @Test("Kinds order as declared")
  func order() {
    #expect(SensorKind.allCases.sorted() == [.accelerometer, .light, .proximity, .compass, .hinge])
    #expect(SensorKind.compass > .light)
  }

  @Test("A reading knows its value and whether there is a sensor")
  func reading() {
    #expect(Reading<Bool>.absent.value == nil && !Reading<Bool>.absent.isPresent)
    #expect(Reading<Bool>.unknown.value == nil && Reading<Bool>.unknown.isPresent)
    #expect(Reading.value(12.5).value == 12.5 && Reading.value(12.5).isPresent)
  }
}
