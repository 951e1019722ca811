/// Decides the device orientation from gravity samples, with a shake gate,
/// hysteresis, a dead zone and a settle time.
///
/// Pure: the caller passes each sample's time, so replays and tests are exact.
public struct OrientationClassifier: Sendable {
  /// The tunables in use.
  public private(set) var settings: ClassifierSettings
  /// The current orientation; nil (undefined) until the first one settles.
  @inlinable
  public var current: DeviceOrientation? { currentStorage }

  @usableFromInline var currentStorage: DeviceOrientation?

  @usableFromInline var pending: DeviceOrientation?
  @usableFromInline var pendingSince = SampleTime.zero
  @usableFromInline var minimumSquared: Double
  @usableFromInline var maximumSquared: Double

  /// Creates a classifier whose orientation starts undefined.
  public init(settings: ClassifierSettings = .defaults) {
    self.settings = settings
    (minimumSquared, maximumSquared) = Self.gateBounds(settings)
  }

  /// Applies new tunables and keeps the current orientation; a pending change restarts.
  public mutating func update(settings: ClassifierSettings) {
    self.settings = settings
    (minimumSquared, maximumSquared) = Self.gateBounds(settings)
    pending = nil
  }

  private static func gateBounds(_ settings: ClassifierSettings) -> (Double, Double) {
    let low = max(0, 1 - settings.shakeTolerance)
    let high = 1 + settings.shakeTolerance
    return (low * low, high * high)
  }

  /// Whether a sample passes the shake gate (its magnitude is close enough to 1 g).
  @inlinable
  public func passesShakeGate(_ gravity: Vector3) -> Bool {
    let squared = gravity.magnitudeSquared
    return squared >= minimumSquared && squared <= maximumSquared
  }

  /// The orientation `gravity` proposes, given the current one (hysteresis and dead zone).
  @inlinable
  public func proposal(for gravity: Vector3) -> DeviceOrientation? {
    if let current, current.component(of: gravity) >= settings.threshold - settings.hysteresis {
      return current
    }
    let strongest = Self.strongest(gravity)
    return strongest.component(of: gravity) >= settings.threshold ? strongest : current
  }

  /// The orientation with the largest component; ties prefer upright, then sideways, then flat.
  @inlinable
  public static func strongest(_ gravity: Vector3) -> DeviceOrientation {
    let ax = abs(gravity.x)
    let ay = abs(gravity.y)
    let az = abs(gravity.z)
    if ay >= ax && ay >= az { return gravity.y <= 0 ? .normal : .bottomUp }
    if ax >= az { return gravity.x >= 0 ? .leftUp : .rightUp }
    return gravity.z <= 0 ? .faceUp : .faceDown
  }

  /// Feeds one sample taken at `time`; returns true when `current` changed.
  @inlinable
  public mutating func add(_ gravity: Vector3, at time: SampleTime) -> Bool {
    guard passesShakeGate(gravity) else {
      pending = nil
      return false
    }
    let proposed = proposal(for: gravity)
    guard proposed != current else {
      pending = nil
      return false
    }
    if proposed != pending {
      pending = proposed
      pendingSince = time
    }
    guard time.microseconds - pendingSince.microseconds >= settings.settleMicroseconds else {
      return false
    }
    currentStorage = proposed
    pending = nil
    return true
  }
}
