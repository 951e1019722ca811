/// Whether anything needs the accelerometers' samples now. The daemon decides (the policy,
/// the mode's source, what clients subscribed to, D-Bus claims); the sampling thread obeys.
package enum SamplingDemand: Equatable, Sendable {
  /// Sample at the interval (faster while a change is pending).
  case sample
  /// Nothing needs the sensors: no timer, no buffer, no wake-up.
  case idle
}

/// What needs the sensor's samples, as the daemon sees it now.
package struct SamplingNeeds: Equatable, Sendable {
  /// Samples are needed whatever else is true: the source is no sensor (the demo, a replay,
  /// which play on so that their time line stays exact), or `--dump` or `--record` want every
  /// sample.
  package var always = false
  /// The screen follows the device, or the mode can only be told from samples (the hinge):
  /// without them the state clients see would go wrong.
  package var state = false
  /// A socket client hears device orientation changes.
  package var deviceSubscribers = false
  /// A socket client streams samples.
  package var sampleSubscribers = false
  /// A socket client waits for a state that is current (its greeting, a `get`).
  package var freshStateWaiters = false
  /// A D-Bus client claims the accelerometer.
  package var busClaims = false
  /// The mount matrix is to be checked against laptop use (`MountMatrixCheck`), which needs
  /// the display's orientation while the machine is a laptop: once a run, until it is found.
  package var mountMatrixCheck = false

  /// Nothing needed yet.
  package init() {}

  /// The demand these needs make.
  package var demand: SamplingDemand {
    always || state || deviceSubscribers || sampleSubscribers || freshStateWaiters || busClaims
      || mountMatrixCheck ? .sample : .idle
  }
}

/// The sampling demand over time, and what the state clients see is worth meanwhile: while
/// the sensor is not read, the device orientation held is stale, so greetings and `get` wait
/// for the first sample after sampling resumes, or for `freshWait` if none comes.
///
/// Sampling resumes at once when something needs it, but stops only once nothing has needed
/// it for `idleDelay`: a client that subscribes and unsubscribes (or claims and releases) as
/// fast as it can must not stop and start the sensor with it, each a driver or sensor-hub
/// request on real hardware.
///
/// Pure: each input returns what the daemon must do, in order.
package struct SamplingDemandState: Sendable {
  /// What the daemon must do.
  package enum Action: Equatable, Sendable {
    /// Tell the sampling thread the new demand.
    case send(SamplingDemand)
    /// Nothing needs samples now: call `idleDelayExpired` after this long, unless cancelled.
    case armIdleDelay(Duration)
    /// Something needs samples again before the idle delay ran out: cancel its timer.
    case cancelIdleDelay
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
  package static let freshWait = Duration.seconds(1)
  /// How long nothing must need samples before sampling stops.
  package static let idleDelay = Duration.seconds(5)

  /// The demand last sent to the sampling thread (it starts sampling).
  package private(set) var sent = SamplingDemand.sample
  /// Whether the state held is stale: sampling stopped since the last fresh sample.
  package private(set) var isStale = false
  /// Whether a wait for a fresh sample runs.
  package private(set) var awaitingFresh = false
  /// Whether the idle delay runs: nothing needs samples, and sampling stops when it ends.
  package private(set) var stopping = false

  /// Sampling starts with the sensor read.
  package init() {}

  /// The needs changed (or may have): returns what to do when the demand changes.
  package mutating func update(_ needs: SamplingNeeds) -> [Action] {
    switch needs.demand {
    case .idle:
      guard sent == .sample, !stopping else { return [] }
      stopping = true
      return [.armIdleDelay(Self.idleDelay)]
    case .sample:
      if stopping {
        // Sampling never stopped: nothing to send.
        stopping = false
        return [.cancelIdleDelay]
      }
      guard sent == .idle else { return [] }
      sent = .sample
      guard isStale else { return [.send(.sample)] }
      awaitingFresh = true
      return [.send(.sample), .awaitFreshSample(within: Self.freshWait)]
    }
  }

  /// Nothing has needed samples for `idleDelay` (`needs` says what needs them now): sampling
  /// stops, and the state held is stale from then on.
  package mutating func idleDelayExpired(_ needs: SamplingNeeds) -> [Action] {
    guard stopping else { return [] }
    stopping = false
    guard needs.demand == .idle else { return [] }
    sent = .idle
    isStale = true
    let cancel: [Action] = awaitingFresh ? [.cancelFreshWait] : []
    awaitingFresh = false
    return [.send(.idle), .holdStaleState] + cancel
  }

  /// The sampling thread says the first sample after resuming has been classified. The
  /// daemon then updates the needs again (the clients served may need nothing more).
  package mutating func freshSampleArrived() -> [Action] {
    let cancel: [Action] = awaitingFresh ? [.cancelFreshWait] : []
    awaitingFresh = false
    guard sent == .sample, isStale else { return cancel }
    isStale = false
    return cancel + [.serveFreshState]
  }

  /// No fresh sample came within `freshWait`: clients get the last known state rather than
  /// wait for a sensor that does not deliver.
  package mutating func freshWaitExpired() -> [Action] {
    guard awaitingFresh else { return [] }
    awaitingFresh = false
    guard sent == .sample, isStale else { return [] }
    isStale = false
    return [.warnNoFreshSample, .serveFreshState]
  }
}
