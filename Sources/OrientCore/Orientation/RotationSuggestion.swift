/// A suggestion to turn a locked screen, as Android's rotation button offers one: while the
/// screen is locked and the device is turned to another orientation the screen could take,
/// orientd says so for a while, and a client may accept it (the lock moves there).
///
/// Only a turn of the device starts one: a lock or allowed set a client chose never makes a
/// suggestion by itself. The device must hold the orientation for `hold` first, so that one it
/// only passes through is not offered; a suggestion lasts `timeout`, and goes as soon as the
/// device leaves the orientation or the screen can no longer take it (unlocked, locked there,
/// not allowed, held upright). One that timed out is not offered again until the device has
/// left the orientation.
///
/// Pure: every input that can start or end one carries its time; `deadline` is when the
/// shell must call `advance(to:)` next.
package struct RotationSuggestion: Sendable {
  /// Whether suggestions are made, and how long their two waits are.
  package struct Settings: Equatable, Sendable {
    /// Whether suggestions are made at all.
    package var enabled: Bool
    /// How long the device must hold an orientation before it is suggested.
    package var hold: Duration
    /// How long a suggestion lasts.
    package var timeout: Duration

    /// Creates settings.
    package init(enabled: Bool, hold: Duration, timeout: Duration) {
      self.enabled = enabled
      self.hold = hold
      self.timeout = timeout
    }

    /// On, after 500 ms, for 5 s. Android shows its rotation button for 5 s, as soon as its
    /// orientation listener proposes another rotation; that proposal comes after the listener's
    /// own waits (300 ms after a swing, 500 ms after lying flat), which orientd's classifier
    /// settle time does not cover, hence the hold.
    package static let defaults = Settings(enabled: true, hold: .milliseconds(500), timeout: .seconds(5))
  }

  private enum Phase: Equatable, Sendable {
    /// Nothing offered, nothing waiting.
    case idle
    /// The device holds `target`; it is suggested at `due` if it still does.
    case holding(ScreenOrientation, due: SampleTime)
    /// `target` is suggested until `expiry`.
    case shown(ScreenOrientation, expiry: SampleTime)
    /// `target` was suggested and timed out: not again until the device leaves it.
    case spent(ScreenOrientation)
  }

  package private(set) var settings: Settings
  private var phase = Phase.idle

  /// A machine with nothing suggested.
  package init(settings: Settings = .defaults) {
    self.settings = settings
  }

  /// The orientation suggested now, if any. Accepting it is locking the screen there, which
  /// ends it (`screenOffers`).
  package var suggested: ScreenOrientation? {
    if case .shown(let target, _) = phase { return target }
    return nil
  }

  /// When `advance(to:)` must be called next (the hold's end, or the suggestion's expiry);
  /// nil when nothing waits.
  package var deadline: SampleTime? {
    switch phase {
    case .holding(_, let due): due
    case .shown(_, let expiry): expiry
    case .idle, .spent: nil
    }
  }

  /// The device turned: `candidate` is the orientation it offers the locked screen now (nil
  /// when it offers none), at `time`. A new candidate starts its hold (replacing a suggestion
  /// of another orientation); none ends what there was.
  package mutating func deviceOffers(_ candidate: ScreenOrientation?, at time: SampleTime) -> [StateChange] {
    guard settings.enabled, let candidate else { return withdraw() }
    switch phase {
    case .holding(let target, _) where target == candidate: return []
    case .shown(let target, _) where target == candidate: return []
    case .spent(let target) where target == candidate: return []
    default: break
    }
    let ended = withdraw()
    phase = .holding(candidate, due: time + settings.hold)
    // A hold of zero suggests at once.
    return ended + advance(to: time)
  }

  /// The policy or the mode changed: `candidate` is what the device offers the screen now.
  /// Only a turn of the device starts a suggestion, so this can only end one (the screen
  /// unlocked, locked to it, or may no longer take it).
  package mutating func screenOffers(_ candidate: ScreenOrientation?) -> [StateChange] {
    switch phase {
    case .holding(let target, _), .shown(let target, _), .spent(let target):
      return target == candidate ? [] : withdraw()
    case .idle:
      return []
    }
  }

  /// Time has come to `time`: a hold that ran its course becomes a suggestion, and a
  /// suggestion whose time is up goes.
  package mutating func advance(to time: SampleTime) -> [StateChange] {
    switch phase {
    case .holding(let target, let due) where time >= due:
      // It lasts its whole timeout from when it is made, however late the call.
      phase = .shown(target, expiry: time + settings.timeout)
      return [.suggestion(target)]
    case .shown(let target, let expiry) where time >= expiry:
      phase = .spent(target)
      return [.suggestion(nil)]
    default:
      return []
    }
  }

  /// New settings: a suggestion made under the old ones stays until it would have gone,
  /// unless suggestions are now off.
  package mutating func configure(_ new: Settings) -> [StateChange] {
    settings = new
    return new.enabled ? [] : withdraw()
  }

  /// Ends whatever there was; `suggestion none` if something was suggested.
  private mutating func withdraw() -> [StateChange] {
    let wasShown = suggested != nil
    phase = .idle
    return wasShown ? [.suggestion(nil)] : []
  }
}
