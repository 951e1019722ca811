import Testing

@testable import OrientCore

@Suite("Subscriptions: the orientation state by default, the readings by name")
struct SubscriptionTests {
  @Test("all is the orientation state only")
  func allIsOrientationState() {
    #expect(Subscription.all.keys == [.sensor, .device, .orientation, .lock, .allowed, .mode, .hinge])
    #expect(Subscription.all.keys == StateKey.orientationState)
    for key in StateKey.readings {
      #expect(!Subscription.all.includes(key))
    }
    #expect(!Subscription.all.includes(.light(.value(LightLevel(1, unit: .lux)))))
    #expect(Subscription.all.readingKinds.isEmpty)
    #expect(Subscription.readings.keys == [.light, .proximity, .heading])
  }

  @Test("subscribe all,light adds light to the orientation state")
  func allPlusLight() throws {
    let subscription = try Subscription.parse("all,light")
    #expect(subscription.keys == StateKey.orientationState + [.light])
    #expect(subscription.includes(.light(.unknown)))
    #expect(!subscription.includes(.proximity(.unknown)))
    #expect(subscription.readingKinds == [.light])
    #expect(subscription.listText == "all,light")
    #expect(try ClientCommand.parse("subscribe all,light") == .subscribe(subscription))
  }

  @Test("Readings alone, in protocol order whatever order they were named in")
  func readingsAlone() throws {
    let subscription = try Subscription.parse("heading, proximity")
    #expect(subscription.keys == [.proximity, .heading])
    #expect(subscription.readingKinds == [.proximity, .compass])
    #expect(subscription.listText == "proximity,heading")
    #expect(try Subscription.parse("light,proximity,heading") == .readings)
  }

  @Test("listText names all when the orientation state is all there, and the rest after it")
  func listText() throws {
    #expect(Subscription.all.listText == "all")
    #expect(Subscription(keys: StateKey.allCases).listText == "all,light,proximity,heading,suggestion")
    #expect(Subscription([.orientation, .heading]).listText == "orientation,heading")
    // One key short of the orientation state is listed key by key.
    let partial = Subscription(keys: StateKey.orientationState.dropLast() + [.light])
    #expect(partial.listText == "sensor,device,orientation,lock,allowed,mode,light")
    for text in ["all", "all,heading", "mode,light", "sensor,proximity,heading", "light"] {
      let subscription = try Subscription.parse(text)
      #expect(try Subscription.parse(subscription.listText) == subscription, "\(text)")
    }
  }

  @Test("Each key is its own member, and a change belongs to its key's")
  func members() {
    let members = StateKey.allCases.map { Subscription($0) }
    #expect(Set(members.map(\.rawValue)).count == StateKey.allCases.count)
    #expect(members.allSatisfy { $0.rawValue.nonzeroBitCount == 1 })
    #expect(Subscription.heading.includes(.heading(.unknown)))
    #expect(Subscription.proximity.includes(.proximity(.absent)))
    #expect(!Subscription.light.includes(.proximity(.absent)))
    #expect(Subscription.light.includes(.light(.unknown)))
  }

  @Test("A bad key is refused, naming the readings among the keys")
  func badKey() {
    #expect(throws: ValueError.self) { try Subscription.parse("all,lux") }
    do {
      _ = try Subscription.parse("compass")
      Issue.record("compass is not a state key")
    } catch {
      #expect(error.message.contains("light, proximity, heading"))
      #expect(error.message.hasPrefix("unknown state 'compass'"))
    }
  }
}
