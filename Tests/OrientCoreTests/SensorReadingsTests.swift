import Testing

@testable import OrientCore

@Suite("The readings clients see: none, undefined, or a value, and only real changes")
struct SensorReadingsTests {
  static let lux350 = LightLevel(350.5, unit: .lux)

  @Test(
    "Before discovery has said anything, each reading is undefined and not current; its first word is always published"
  )
  func initial() {
    var readings = SensorReadings()
    #expect(readings.change(.light) == .light(.unknown))
    #expect(readings.change(.proximity) == .proximity(.unknown))
    #expect(readings.change(.compass) == .heading(.unknown))
    #expect(readings.change(.accelerometer) == nil)
    for kind in SensorKind.readingKinds {
      #expect(!readings.isPresent(kind))
      #expect(!readings.isCurrent(kind), "a client waits for discovery rather than hear none too early")
    }
    #expect(readings.take(.light(Self.lux350)).isEmpty, "no value before discovery found the sensor")
    #expect(readings.setPresent(.light, false) == [.light(.absent)])
    #expect(readings.isCurrent(.light), "no sensor is a known state")
    // Found at once: the reading stays undefined, and is said all the same, so that every
    // sink hears that there is a sensor.
    #expect(readings.setPresent(.proximity, true) == [.proximity(.unknown)])
    #expect(readings.noSensors() == [.proximity(.absent), .heading(.absent)])
  }

  @Test("A sensor that appears is undefined until its first value")
  func appears() {
    var readings = SensorReadings()
    #expect(readings.setPresent(.light, true) == [.light(.unknown)])
    #expect(readings.isPresent(.light))
    #expect(!readings.isCurrent(.light))
    #expect(readings.setPresent(.light, true).isEmpty, "present again is no change")
    #expect(readings.take(.light(Self.lux350)) == [.light(.value(Self.lux350))])
    #expect(readings.light == .value(Self.lux350))
    #expect(readings.isCurrent(.light))
  }

  @Test("The same value again is no change; another is")
  func onlyRealChanges() {
    var readings = SensorReadings()
    _ = readings.setPresent(.proximity, true)
    #expect(readings.take(.proximity(near: true)) == [.proximity(.value(true))])
    #expect(readings.take(.proximity(near: true)).isEmpty)
    #expect(readings.take(.proximity(near: false)) == [.proximity(.value(false))])
    _ = readings.setPresent(.compass, true)
    #expect(readings.take(.heading(123.4)) == [.heading(.value(123.4))])
    #expect(readings.take(.heading(123.4)).isEmpty)
    #expect(readings.take(.heading(124.4)) == [.heading(.value(124.4))])
  }

  @Test("A stopped sensor is undefined, not its stale value; stopped twice is one change")
  func stopped() {
    var readings = SensorReadings()
    _ = readings.setPresent(.compass, true)
    _ = readings.take(.heading(90))
    #expect(readings.stopped(.compass) == [.heading(.unknown)])
    #expect(readings.heading == .unknown)
    #expect(readings.isPresent(.compass))
    #expect(readings.stopped(.compass).isEmpty)
    #expect(
      readings.take(.heading(90)) == [.heading(.value(90))], "the first value after a restart is published")
  }

  @Test("A sensor that goes away is none, its value forgotten")
  func goesAway() {
    var readings = SensorReadings()
    _ = readings.setPresent(.light, true)
    _ = readings.take(.light(Self.lux350))
    #expect(readings.setPresent(.light, false) == [.light(.absent)])
    #expect(!readings.isPresent(.light))
    #expect(readings.isCurrent(.light))
    #expect(readings.setPresent(.light, false).isEmpty)
    #expect(readings.stopped(.light).isEmpty, "an absent sensor does not stop")
    #expect(readings.setPresent(.light, true) == [.light(.unknown)], "back again, without the old value")
  }

  @Test("The kinds are independent")
  func independent() {
    var readings = SensorReadings()
    _ = readings.noSensors()
    _ = readings.setPresent(.light, true)
    #expect(readings.change(.proximity) == .proximity(.absent))
    #expect(readings.setPresent(.proximity, true) == [.proximity(.unknown)])
    #expect(readings.light == .unknown)
    #expect(readings.heading == .absent)
  }

  @Test("The accelerometer has no reading here")
  func accelerometer() {
    var readings = SensorReadings()
    #expect(readings.setPresent(.accelerometer, true).isEmpty)
    #expect(!readings.isPresent(.accelerometer))
    #expect(readings.stopped(.accelerometer).isEmpty)
  }

  @Test("A change is found by its state key, for the readings' keys only")
  func byKey() {
    var readings = SensorReadings()
    _ = readings.noSensors()
    _ = readings.setPresent(.proximity, true)
    _ = readings.take(.proximity(near: true))
    #expect(readings.change(for: .proximity) == .proximity(.value(true)))
    #expect(readings.change(for: .light) == .light(.absent))
    #expect(readings.change(for: .heading) == .heading(.absent))
    #expect(readings.change(for: .orientation) == nil)
    #expect(readings.change(for: .sensor) == nil)
  }

  @Test("A value delivered carries its sensor's kind")
  func valueKinds() {
    #expect(ReadingValue.light(Self.lux350).kind == .light)
    #expect(ReadingValue.proximity(near: false).kind == .proximity)
    #expect(ReadingValue.heading(1).kind == .compass)
  }
}
