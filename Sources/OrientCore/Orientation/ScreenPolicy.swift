/// Which way to turn the screen on a rotate command.
package enum RotationDirection: Sendable {
  case clockwise
  case counterClockwise
}

/// Why a screen-policy command was refused.
package enum PolicyError: Error, Equatable, Sendable, CustomStringConvertible {
  /// The target orientation is not in the allowed set.
  case notAllowed(ScreenOrientation, AllowedOrientations)
  /// None of the orientations a client supports (the first set) is in the allowed set.
  case noneSupported(AllowedOrientations, AllowedOrientations)

  package var description: String {
    switch self {
    case .notAllowed(let target, let allowed):
      return "\(target.name) is not allowed (allowed: \(allowed.listText))"
    case .noneSupported(let supported, let allowed):
      return "none of \(supported.listText) is allowed (allowed: \(allowed.listText))"
    }
  }
}

/// Decides the screen orientation from the device orientation, the lock and the allowed set.
///
/// Unlocked, the screen takes the most recent four-way device orientation that is allowed;
/// face-up and face-down never change it. Locked, it stays on the lock while detection goes on.
/// The lock is always allowed: a lock outside the allowed set cannot be taken, and a new
/// allowed set that leaves the lock out releases it (the newest intent wins).
/// Every method returns the changes it caused, a `lock` or `allowed` change before the
/// `orientation` change that follows from it.
package struct ScreenPolicy: Sendable {
  /// The allowed screen orientations.
  package private(set) var allowed: AllowedOrientations
  /// The orientation the screen is locked to, or nil when it follows the device.
  package private(set) var lock: ScreenOrientation?
  /// The screen orientation; nil (undefined) until the device first takes an allowed one.
  package private(set) var orientation: ScreenOrientation?
  /// Four-way device orientations seen, most recent first, each at most once.
  private(set) var recent: [ScreenOrientation] = []
  /// Whether the screen is held upright whatever the device does (laptop mode under the
  /// tablet policy). A lock still wins: it is what the user asked for.
  package private(set) var held = false

  /// Creates a policy; a lock given here (e.g. restored from disk) applies at once, unless
  /// `allowed` leaves it out.
  package init(allowed: AllowedOrientations = .all, lock: ScreenOrientation? = nil) {
    self.allowed = allowed.isEmpty ? .all : allowed
    self.lock = lock.flatMap { self.allowed.contains($0) ? $0 : nil }
    self.orientation = self.lock
  }

  /// The orientation the screen follows when unlocked.
  package var following: ScreenOrientation? {
    recent.first(where: { allowed.contains($0) })
  }

  /// The orientation the policy gives a screen that may take only the orientations of `set`
  /// (the allowed set, or its intersection with what one client supports): the lock whatever
  /// `set` holds; held, `normal` or else the first of `set` clockwise; otherwise the most
  /// recent four-way device orientation in `set`. Nil when the rule finds none (no device
  /// orientation of `set` seen yet, or `set` empty).
  func orientation(within set: AllowedOrientations) -> ScreenOrientation? {
    if let lock { return lock }
    if held { return set.contains(.normal) ? .normal : set.members.first }
    return recent.first(where: { set.contains($0) })
  }

  /// The orientation a locked screen could take from `device`: its four-way orientation,
  /// where that is allowed and not the lock; nil unlocked, or held upright (unlocked, the
  /// screen would not follow the device either).
  package func suggestion(for device: DeviceOrientation?) -> ScreenOrientation? {
    guard let lock, !held, let screen = device?.screen, screen != lock, allowed.contains(screen) else {
      return nil
    }
    return screen
  }

  /// Holds the screen upright (true), or lets it follow the device again (false); the device
  /// orientations seen meanwhile are kept, so release turns to the latest at once.
  package mutating func hold(_ newHeld: Bool) -> [StateChange] {
    guard newHeld != held else { return [] }
    held = newHeld
    return resolve()
  }

  /// Records a new device orientation.
  mutating func deviceChanged(to device: DeviceOrientation?) -> [StateChange] {
    guard let screen = device?.screen else { return [] }
    recent.removeAll(where: { $0 == screen })
    recent.insert(screen, at: 0)
    return resolve()
  }

  /// Locks the screen to `target`, or to the current orientation (normal if undefined).
  package mutating func lock(to target: ScreenOrientation? = nil) throws(PolicyError) -> [StateChange] {
    let chosen = target ?? orientation ?? .normal
    guard allowed.contains(chosen) else { throw .notAllowed(chosen, allowed) }
    guard lock != chosen else { return [] }
    lock = chosen
    return [.lock(chosen)] + resolve()
  }

  /// Unlocks; the screen at once follows the device again.
  package mutating func unlock() -> [StateChange] {
    guard lock != nil else { return [] }
    lock = nil
    return [.lock(nil)] + resolve()
  }

  /// Locks to the next allowed orientation clockwise or counter-clockwise from the current one
  /// (`normal` when undefined), skipping those that are not allowed; with one allowed
  /// orientation, that one.
  package mutating func rotate(_ direction: RotationDirection) throws(PolicyError) -> [StateChange] {
    var target = orientation ?? .normal
    for _ in 0..<4 {
      target = direction == .clockwise ? target.clockwise : target.counterClockwise
      if allowed.contains(target) { break }
    }
    return try lock(to: target)
  }

  /// Replaces the allowed set; an empty set is ignored (the caller rejects it first).
  ///
  /// A set that leaves out the lock releases it: the allowed change comes first, then the
  /// unlock, then the orientation the screen now follows.
  package mutating func allow(_ newAllowed: AllowedOrientations) -> [StateChange] {
    guard !newAllowed.isEmpty, newAllowed != allowed else { return [] }
    allowed = newAllowed
    var changes: [StateChange] = [.allowed(newAllowed)]
    if let locked = lock, !newAllowed.contains(locked) {
      lock = nil
      changes.append(.lock(nil))
    }
    return changes + resolve()
  }

  private mutating func resolve() -> [StateChange] {
    let target = orientation(within: allowed)
    guard target != orientation else { return [] }
    orientation = target
    return [.orientation(target)]
  }
}
