/// Whether anything needs the accelerometers' samples now. The daemon decides (the policy,
/// the mode's source, what clients subscribed to, D-Bus claims); the sampling thread obeys.
public enum SamplingDemand: Equatable, Sendable {
  /// Sample at the interval (faster while a change is pending).
  case sample
  /// Nothing needs the sensors: no timer, no buffer, no wake-up.
  case idle
}

/// What needs the sensor's samples, as the daemon sees it now.
public struct SamplingNeeds: Equatable, Sendable {
  /// Samples are needed whatever else is true: the source is no sensor (the demo, a replay,
  /// which play on so that their time line stays exact), or `--dump` or `--record` want every
  /// sample.
  public var always = false
  /// The screen follows the device, or the mode can only be told from samples (the hinge):
  /// without them the state clients see would go wrong.
  public var state = false
  /// A socket client hears device orientation changes.
  public var deviceSubscribers = false
  /// A socket client streams samples.
  public var sampleSubscribers = false
  /// A socket client waits for a state that is current (its greeting, a `get`).
  public var freshStateWaiters = false
  /// A D-Bus client claims the accelerometer.
  public var busClaims = false

  /// Nothing needed yet.
  public init() {}

  /// The demand these needs make.
  public var demand: SamplingDemand {
    always || state || deviceSubscribers || sampleSubscribers || freshStateWaiters || busClaims
      ? .sample : .idle
  }
}

/// The sampling demand over time, and what the state clients see is worth meanwhile: while
/// the sensor is not read, the device orientation held is stale, so greetings and `get` wait
/// for the first sample after sampling resumes, or for `freshWait` if none comes.
///
/// Pure: each input returns what the daemon must do, in order.
public struct SamplingDemandState: Sendable {
  /// What the daemon must do.
  public enum Action: Equatable, Sendable {
    /// Tell the sampling thread the new demand.
    case send(SamplingDemand)
    /// Sampling stops: the state held is stale from now on, and clients that need it current
    /// wait for a fresh one.
    case holdStaleState
    /// Sampling resumes after a stale stretch: wait at most this long for the first sample.
    case awaitFreshSample(within: Duration)
    /// The wait for a fresh sample is over (or no longer needed): cancel its timer.
    case cancelFreshWait
    /// No fresh sample came in time: say so, then serve the last known state.
    case warnNoFreshSample
    /// The state is current again: serve the clients that waited for it.
    case serveFreshState
  }

  /// How long clients wait for a fresh sample after sampling resumes.
  public static let freshWait = Duration.seconds(1)

  /// The demand last sent to the sampling thread (it starts sampling).
  public private(set) var sent = SamplingDemand.sample
  /// Whether the state held is stale: sampling stopped since the last fresh sample.
  public private(set) var isStale = false
  /// Whether a wait for a fresh sample runs.
  public private(set) var awaitingFresh = false

  /// Sampling starts with the sensor read.
  public init() {}

  /// The needs changed (or may have): returns what to do when the demand changes.
  public mutating func update(_ needs: SamplingNeeds) -> [Action] {
    let demand = needs.demand
    guard demand != sent else { return [] }
    sent = demand
    switch demand {
    case .idle:
      isStale = true
      let cancel: [Action] = awaitingFresh ? [.cancelFreshWait] : []
      awaitingFresh = false
      return [.send(.idle), .holdStaleState] + cancel
    case .sample:
      guard isStale else { return [.send(.sample)] }
      awaitingFresh = true
      return [.send(.sample), .awaitFreshSample(within: Self.freshWait)]
    }
  }

  /// The sampling thread says the first sample after resuming has been classified. The
  /// daemon then updates the needs again (the clients served may need nothing more).
  public mutating func freshSampleArrived() -> [Action] {
    let cancel: [Action] = awaitingFresh ? [.cancelFreshWait] : []
    awaitingFresh = false
    guard sent == .sample, isStale else { return cancel }
    isStale = false
    return cancel + [.serveFreshState]
  }

  /// No fresh sample came within `freshWait`: clients get the last known state rather than
  /// wait for a sensor that does not deliver.
  public mutating func freshWaitExpired() -> [Action] {
    guard awaitingFresh else { return [] }
    awaitingFresh = false
    guard sent == .sample, isStale else { return [] }
    isStale = false
    return [.warnNoFreshSample, .serveFreshState]
  }
}
