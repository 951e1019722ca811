import Testing

@testable import OrientCore

@Suite("Publishing each declared set's own orientation, once per set")
struct ClientViewsTests {
  let landscape = try! AllowedOrientations.parse("normal,bottom-up")
  let portrait = try! AllowedOrientations.parse("left-up,right-up")

  /// A tracker whose device is `device`, with clients holding `sets` declared through `views`.
  func setUp(_ device: DeviceOrientation, sets: [AllowedOrientations]) throws -> (
    OrientationTracker, ClientViews, [ClientScreenView]
  ) {
    var tracker = OrientationTracker()
    _ = tracker.setDevice(device, at: .zero)
    var views = ClientViews()
    var declared: [ClientScreenView] = []
    for set in sets {
      let view = try ClientScreenView(supporting: set, under: tracker.policy)
      _ = views.declare(view, replacing: .policy, under: tracker.policy)
      declared.append(view)
    }
    return (tracker, views, declared)
  }

  @Test("One device change: each set is told its own orientation, or only the device line when it stays")
  func sameChangeDifferentLines() throws {
    var (tracker, views, declared) = try setUp(.normal, sets: [landscape, portrait])
    let changes = tracker.setDevice(.leftUp, at: .zero)
    #expect(changes == [.device(.leftUp), .orientation(.leftUp)])
    let told = views.changesByView(changes, under: tracker.policy)
    #expect(told[declared[0]] == [.device(.leftUp)])
    #expect(told[declared[1]] == [.device(.leftUp), .orientation(.leftUp)])
    #expect(told.count == 2, "the policy's own clients take the batch as it is")
    let next = tracker.setDevice(.bottomUp, at: .zero)
    let toldNext = views.changesByView(next, under: tracker.policy)
    #expect(toldNext[declared[0]] == [.device(.bottomUp), .orientation(.bottomUp)])
    #expect(toldNext[declared[1]] == [.device(.bottomUp)])
  }

  @Test("A set whose orientation changes while the policy's does not is told it after the batch")
  func ownChangeWithoutPolicyChange() throws {
    var tracker = OrientationTracker()
    for device in [DeviceOrientation.leftUp, .rightUp, .normal] { _ = tracker.setDevice(device, at: .zero) }
    var views = ClientViews()
    let view = try ClientScreenView(supporting: portrait, under: tracker.policy)
    #expect(views.declare(view, replacing: .policy, under: tracker.policy) == .orientation(.rightUp))
    let narrowed = try AllowedOrientations.parse("normal,left-up")
    let changes = tracker.apply { $0.allow(narrowed) }
    #expect(changes == [.allowed(narrowed)], "the policy's screen stays normal")
    #expect(
      views.changesByView(changes, under: tracker.policy)[view] == [
        .allowed(narrowed), .orientation(.leftUp),
      ])
  }

  @Test("A lock's orientation reaches every set, in the lock's batch order")
  func lockReachesEverySet() throws {
    var (tracker, views, declared) = try setUp(.normal, sets: [landscape, portrait])
    let changes = try tracker.apply { (policy: inout ScreenPolicy) throws(PolicyError) in
      try policy.lock(to: .rightUp)
    }
    let told = views.changesByView(changes, under: tracker.policy)
    #expect(told[declared[0]] == [.lock(.rightUp), .orientation(.rightUp)])
    #expect(told[declared[1]] == [.lock(.rightUp), .orientation(.rightUp)])
    // The portrait set was told nothing before (undefined): the next unlock tells it so again.
    let unlocked = views.changesByView(tracker.apply { $0.unlock() }, under: tracker.policy)
    #expect(unlocked[declared[0]] == [.lock(nil), .orientation(.normal)])
    #expect(unlocked[declared[1]] == [.lock(nil), .orientation(nil)])
  }

  @Test("Declaring tells the client its orientation only when it differs from what it was told")
  func declareTellsChange() throws {
    let (tracker, _, _) = try setUp(.normal, sets: [])
    var views = ClientViews()
    let wide = try ClientScreenView(supporting: landscape, under: tracker.policy)
    let tall = try ClientScreenView(supporting: portrait, under: tracker.policy)
    #expect(views.declare(wide, replacing: .policy, under: tracker.policy) == nil, "normal either way")
    #expect(views.declare(tall, replacing: wide, under: tracker.policy) == .orientation(nil))
    #expect(views.declare(tall, replacing: tall, under: tracker.policy) == nil)
    #expect(views.declare(.policy, replacing: tall, under: tracker.policy) == .orientation(.normal))
    #expect(views.views.isEmpty, "supports all leaves the set")
  }

  @Test("Sets are counted per client: one entry per distinct set, gone with its last client")
  func onePerDistinctSet() throws {
    let (tracker, _, _) = try setUp(.normal, sets: [])
    var views = ClientViews()
    let wide = try ClientScreenView(supporting: landscape, under: tracker.policy)
    let tall = try ClientScreenView(supporting: portrait, under: tracker.policy)
    for index in 0..<100 {
      _ = views.declare(index.isMultiple(of: 2) ? wide : tall, replacing: .policy, under: tracker.policy)
    }
    #expect(Set(views.views) == [wide, tall])
    #expect(views.changesByView([.device(.faceUp)], under: tracker.policy).count == 2)
    for _ in 0..<49 { views.leave(wide) }
    #expect(Set(views.views) == [wide, tall])
    views.leave(wide)
    views.leave(.policy)
    #expect(views.views == [tall])
  }

  @Test("The state a client is told carries its set's orientation; the policy's clients get it as it is")
  func stateCarriesOwnOrientation() throws {
    let (tracker, views, declared) = try setUp(.leftUp, sets: [landscape])
    let snapshot = tracker.snapshot
    #expect(views.state(snapshot, for: .policy, under: tracker.policy) == snapshot)
    let own = views.state(snapshot, for: declared[0], under: tracker.policy)
    #expect(own.map(\.key) == snapshot.map(\.key))
    #expect(own[2] == .orientation(nil) && snapshot[2] == .orientation(.leftUp))
    #expect(own.filter { $0.key != .orientation } == snapshot.filter { $0.key != .orientation })
  }
}
