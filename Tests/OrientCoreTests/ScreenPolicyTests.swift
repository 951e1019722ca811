import Testing

@testable import OrientCore

@Suite("Deciding the screen orientation")
struct ScreenPolicyTests {
  @Test("The screen follows four-way device orientations and starts undefined")
  func follows() {
    var policy = ScreenPolicy()
    #expect(policy.orientation == nil)
    #expect(policy.deviceChanged(to: .leftUp) == [.orientation(.leftUp)])
    #expect(policy.deviceChanged(to: .bottomUp) == [.orientation(.bottomUp)])
  }

  @Test("Face-up and face-down never change the screen orientation")
  func flatKeepsScreen() {
    var policy = ScreenPolicy()
    #expect(policy.deviceChanged(to: .faceUp) == [])
    #expect(policy.orientation == nil)
    _ = policy.deviceChanged(to: .rightUp)
    #expect(policy.deviceChanged(to: .faceDown) == [])
    #expect(policy.orientation == .rightUp)
  }

  @Test("A device orientation outside the allowed set leaves the screen where it was")
  func allowedSet() throws {
    var policy = ScreenPolicy(allowed: try AllowedOrientations.parse("normal, left-up"))
    _ = policy.deviceChanged(to: .leftUp)
    #expect(policy.deviceChanged(to: .bottomUp) == [])
    #expect(policy.orientation == .leftUp)
    #expect(policy.deviceChanged(to: .normal) == [.orientation(.normal)])
  }

  @Test("Widening the allowed set moves the screen to the latest device orientation now allowed")
  func wideningAllowed() throws {
    var policy = ScreenPolicy(allowed: AllowedOrientations(.normal))
    _ = policy.deviceChanged(to: .normal)
    _ = policy.deviceChanged(to: .rightUp)
    #expect(policy.orientation == .normal)
    #expect(policy.allow(.all) == [.allowed(.all), .orientation(.rightUp)])
  }

  @Test("Narrowing the allowed set falls back to the latest device orientation still allowed")
  func narrowingAllowed() {
    var policy = ScreenPolicy()
    _ = policy.deviceChanged(to: .leftUp)
    _ = policy.deviceChanged(to: .bottomUp)
    let leftOnly = AllowedOrientations(.leftUp)
    #expect(policy.allow(leftOnly) == [.allowed(leftOnly), .orientation(.leftUp)])
  }

  @Test("Locked, the screen stays put while the device turns; unlock follows the device again")
  func lockAndUnlock() throws {
    var policy = ScreenPolicy()
    _ = policy.deviceChanged(to: .normal)
    #expect(try policy.lock() == [.lock(.normal)])
    #expect(policy.deviceChanged(to: .leftUp) == [])
    #expect(policy.orientation == .normal)
    #expect(policy.unlock() == [.lock(nil), .orientation(.leftUp)])
    #expect(policy.unlock() == [])
  }

  @Test("Locking to another orientation reports the lock before the orientation it causes")
  func lockOrder() throws {
    var policy = ScreenPolicy()
    _ = policy.deviceChanged(to: .normal)
    #expect(try policy.lock(to: .bottomUp) == [.lock(.bottomUp), .orientation(.bottomUp)])
    #expect(try policy.lock(to: .bottomUp) == [])
  }

  @Test("Locking with no orientation known locks to normal")
  func lockWhenUndefined() throws {
    var policy = ScreenPolicy()
    #expect(try policy.lock() == [.lock(.normal), .orientation(.normal)])
  }

  @Test("Rotating clockwise goes normal, left-up, bottom-up, right-up and round again")
  func rotateClockwise() throws {
    var policy = ScreenPolicy()
    _ = policy.deviceChanged(to: .normal)
    var seen: [ScreenOrientation?] = []
    for _ in 0..<4 {
      _ = try policy.rotate(.clockwise)
      seen.append(policy.orientation)
    }
    #expect(seen == [.leftUp, .bottomUp, .rightUp, .normal])
    #expect(policy.lock == .normal)
  }

  @Test("Rotating counter-clockwise goes the other way")
  func rotateCounterClockwise() throws {
    var policy = ScreenPolicy()
    _ = policy.deviceChanged(to: .normal)
    #expect(try policy.rotate(.counterClockwise) == [.lock(.rightUp), .orientation(.rightUp)])
    #expect(try policy.rotate(.counterClockwise) == [.lock(.bottomUp), .orientation(.bottomUp)])
  }

  @Test("Rotating skips the orientations that are not allowed, both ways")
  func rotateSkipsNotAllowed() throws {
    let allowed = try AllowedOrientations.parse("normal,right-up")
    var policy = ScreenPolicy(allowed: allowed)
    _ = policy.deviceChanged(to: .normal)
    // Clockwise from normal, left-up and bottom-up are not allowed: right-up is next.
    #expect(try policy.rotate(.clockwise) == [.lock(.rightUp), .orientation(.rightUp)])
    #expect(try policy.rotate(.clockwise) == [.lock(.normal), .orientation(.normal)])
    #expect(try policy.rotate(.counterClockwise) == [.lock(.rightUp), .orientation(.rightUp)])
    #expect(try policy.rotate(.counterClockwise) == [.lock(.normal), .orientation(.normal)])
  }

  @Test("Locked to left-up with normal and left-up allowed, rotate cw goes back to normal, not bottom-up")
  func rotateFromLockSkips() throws {
    var policy = ScreenPolicy(allowed: try AllowedOrientations.parse("normal,left-up"), lock: .leftUp)
    #expect(try policy.rotate(.clockwise) == [.lock(.normal), .orientation(.normal)])
    #expect(try policy.rotate(.counterClockwise) == [.lock(.leftUp), .orientation(.leftUp)])
  }

  @Test("With one orientation allowed, rotating locks to it from wherever the screen was")
  func rotateWithOneAllowed() throws {
    var policy = ScreenPolicy(allowed: AllowedOrientations(.bottomUp))
    #expect(policy.orientation == nil)
    #expect(try policy.rotate(.clockwise) == [.lock(.bottomUp), .orientation(.bottomUp)])
    #expect(try policy.rotate(.counterClockwise) == [])
    #expect(policy.lock == .bottomUp)
  }

  @Test("Locking to an orientation that is not allowed is refused")
  func lockNotAllowed() {
    var policy = ScreenPolicy(allowed: AllowedOrientations(.normal))
    #expect(throws: PolicyError.self) { try policy.lock(to: .leftUp) }
    #expect(policy.lock == nil)
  }

  @Test("A lock given at start applies at once")
  func restoredLock() {
    let policy = ScreenPolicy(allowed: .all, lock: .rightUp)
    #expect(policy.orientation == .rightUp)
    #expect(policy.lock == .rightUp)
  }

  @Test("An allowed set that leaves out the lock releases it: allowed, then unlock, then orientation")
  func allowReleasesExcludedLock() throws {
    var policy = ScreenPolicy()
    _ = policy.deviceChanged(to: .rightUp)
    _ = try policy.lock(to: .leftUp)
    let normalOnly = AllowedOrientations(.normal)
    // No allowed device orientation was seen: as after an unlock, the screen is undefined
    // until the device takes an allowed one.
    #expect(policy.allow(normalOnly) == [.allowed(normalOnly), .lock(nil), .orientation(nil)])
    #expect(policy.lock == nil)
    #expect(policy.deviceChanged(to: .normal) == [.orientation(.normal)])
  }

  @Test("Released by a narrower allowed set, the screen follows the latest allowed device orientation")
  func allowReleasesLockAndFollows() throws {
    var policy = ScreenPolicy()
    _ = policy.deviceChanged(to: .normal)
    _ = policy.deviceChanged(to: .bottomUp)
    _ = try policy.lock(to: .leftUp)
    let allowed = try AllowedOrientations.parse("normal,right-up")
    #expect(policy.allow(allowed) == [.allowed(allowed), .lock(nil), .orientation(.normal)])
  }

  @Test("An allowed set that keeps the lock keeps it")
  func allowKeepsIncludedLock() throws {
    var policy = ScreenPolicy()
    _ = try policy.lock(to: .leftUp)
    let allowed = try AllowedOrientations.parse("left-up,normal")
    #expect(policy.allow(allowed) == [.allowed(allowed)])
    #expect(policy.lock == .leftUp)
    #expect(policy.orientation == .leftUp)
  }

  @Test("A lock given at start that the allowed set leaves out is not taken")
  func restoredLockOutsideAllowed() {
    let policy = ScreenPolicy(allowed: AllowedOrientations(.normal), lock: .leftUp)
    #expect(policy.lock == nil)
    #expect(policy.orientation == nil)
  }

  @Test("The rule within a set: the lock whatever the set, the latest device orientation in the set, or none")
  func orientationWithinSet() throws {
    var policy = ScreenPolicy()
    _ = policy.deviceChanged(to: .normal)
    _ = policy.deviceChanged(to: .leftUp)
    _ = policy.deviceChanged(to: .faceUp)
    let landscape = try AllowedOrientations.parse("normal,bottom-up")
    #expect(policy.orientation(within: .all) == .leftUp)
    #expect(policy.orientation(within: landscape) == .normal)
    #expect(policy.orientation(within: AllowedOrientations(.rightUp)) == nil)
    #expect(policy.orientation(within: []) == nil)
    _ = try policy.lock(to: .bottomUp)
    #expect(policy.orientation(within: AllowedOrientations(.rightUp)) == .bottomUp)
    #expect(policy.orientation(within: []) == .bottomUp)
  }

  @Test("Held upright, the rule within a set gives normal, or the set's first orientation clockwise")
  func heldWithinSet() throws {
    var policy = ScreenPolicy()
    _ = policy.deviceChanged(to: .rightUp)
    _ = policy.hold(true)
    #expect(policy.orientation(within: .all) == .normal)
    #expect(policy.orientation(within: try AllowedOrientations.parse("right-up,bottom-up")) == .bottomUp)
    #expect(policy.orientation(within: []) == nil)
  }
}
