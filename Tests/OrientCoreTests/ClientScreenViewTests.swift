import Testing

@testable import OrientCore

@Suite("One client's own screen orientation, within the orientations it supports")
struct ClientScreenViewTests {
  let landscape = try! AllowedOrientations.parse("normal,bottom-up")
  let portrait = try! AllowedOrientations.parse("left-up,right-up")

  /// A policy that has seen the device take `orientations`, in order.
  func policy(
    allowed: AllowedOrientations = .all, seen orientations: [DeviceOrientation]
  ) -> ScreenPolicy {
    var policy = ScreenPolicy(allowed: allowed)
    for orientation in orientations { _ = policy.deviceChanged(to: orientation) }
    return policy
  }

  @Test("A landscape and a portrait client each follow the device within their own set")
  func followsWithinOwnSet() throws {
    let empty = ScreenPolicy()
    let wide = try ClientScreenView(supporting: landscape, under: empty)
    let tall = try ClientScreenView(supporting: portrait, under: empty)
    var seen: [DeviceOrientation] = []
    var told: [(ScreenOrientation?, ScreenOrientation?, ScreenOrientation?)] = []
    for device in [DeviceOrientation.normal, .leftUp, .faceUp, .bottomUp, .rightUp] {
      seen.append(device)
      let now = policy(seen: seen)
      told.append((now.orientation, wide.orientation(under: now), tall.orientation(under: now)))
    }
    #expect(told.map(\.0) == [.normal, .leftUp, .leftUp, .bottomUp, .rightUp])
    #expect(told.map(\.1) == [.normal, .normal, .normal, .bottomUp, .bottomUp])
    #expect(told.map(\.2) == [nil, .leftUp, .leftUp, .leftUp, .rightUp])
  }

  @Test("The client's set counts only where the allowed set agrees")
  func withinAllowed() throws {
    let allowed = try AllowedOrientations.parse("normal,left-up")
    let now = policy(allowed: allowed, seen: [.leftUp, .bottomUp, .normal])
    let view = try ClientScreenView(
      supporting: try AllowedOrientations.parse("left-up,bottom-up"), under: now)
    // bottom-up is the client's, but not allowed: left-up is the latest orientation in both.
    #expect(view.orientation(under: now) == .leftUp)
    #expect(now.orientation == .normal)
  }

  @Test("The lock wins over the client's set")
  func lockWins() throws {
    var now = policy(seen: [.normal])
    let view = try ClientScreenView(supporting: landscape, under: now)
    _ = try now.lock(to: .leftUp)
    #expect(view.orientation(under: now) == .leftUp)
    _ = now.unlock()
    #expect(view.orientation(under: now) == .normal)
  }

  @Test("Held upright in laptop mode, a client that cannot show normal gets its first orientation clockwise")
  func held() throws {
    var now = policy(seen: [.rightUp])
    _ = now.hold(true)
    #expect(try ClientScreenView(supporting: landscape, under: now).orientation(under: now) == .normal)
    #expect(try ClientScreenView(supporting: portrait, under: now).orientation(under: now) == .leftUp)
  }

  @Test("A set with no allowed orientation is refused, naming both sets")
  func refusesEmptyIntersection() {
    let now = policy(allowed: landscape, seen: [.normal])
    #expect(throws: PolicyError.noneSupported(portrait, landscape)) {
      try ClientScreenView(supporting: portrait, under: now)
    }
    #expect(
      PolicyError.noneSupported(portrait, landscape).description
        == "none of left-up,right-up is allowed (allowed: normal,bottom-up)")
  }

  @Test(
    "When a later allow leaves none of its set, the client's orientation is undefined until one is allowed again"
  )
  func allowEmptiesIntersection() throws {
    var now = policy(seen: [.normal, .leftUp])
    let view = try ClientScreenView(supporting: landscape, under: now)
    #expect(view.orientation(under: now) == .normal)
    _ = now.allow(portrait)
    #expect(now.orientation == .leftUp)
    #expect(view.orientation(under: now) == nil)
    _ = try now.lock(to: .rightUp)
    #expect(view.orientation(under: now) == .rightUp, "the lock still wins")
    _ = now.unlock()
    _ = now.allow(.all)
    #expect(view.orientation(under: now) == .normal)
  }

  @Test("A client whose set holds every allowed orientation sees the policy's orientation exactly")
  func supersetIsPolicy() throws {
    var now = policy(allowed: landscape, seen: [.bottomUp, .leftUp])
    let views = [
      ClientScreenView.policy, try ClientScreenView(supporting: .all, under: now),
      try ClientScreenView(
        supporting: try AllowedOrientations.parse("normal,bottom-up,right-up"), under: now),
    ]
    #expect(views[1] == .policy && views[1].followsPolicy && !views[2].followsPolicy)
    #expect(views.allSatisfy { $0.orientation(under: now) == .bottomUp })
    _ = now.hold(true)
    #expect(views.allSatisfy { $0.orientation(under: now) == now.orientation })
  }
}
