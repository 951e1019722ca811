import OrientCore
import Testing

@Suite("What needs the sensor's samples")
struct SamplingNeedsTests {
  @Test("Anything that needs samples makes the demand sample; nothing makes it idle")
  func demand() {
    #expect(SamplingNeeds().demand == .idle)
    let each: [WritableKeyPath<SamplingNeeds, Bool>] = [
      \.always, \.state, \.deviceSubscribers, \.sampleSubscribers, \.freshStateWaiters, \.busClaims,
    ]
    for need in each {
      var needs = SamplingNeeds()
      needs[keyPath: need] = true
      #expect(needs.demand == .sample, "\(need) alone does not make the sensor sample")
    }
  }
}

@Suite("Sampling that follows need, and the state that goes stale while the sensor rests")
struct SamplingDemandStateTests {
  static let idle = SamplingNeeds()
  static var subscribed: SamplingNeeds {
    var needs = SamplingNeeds()
    needs.deviceSubscribers = true
    return needs
  }

  /// A state whose sampling has stopped: idle, and the idle delay run out.
  static func stopped() -> SamplingDemandState {
    var state = SamplingDemandState()
    _ = state.update(idle)
    _ = state.idleDelayExpired(idle)
    return state
  }

  @Test("Sampling runs from the start; the same demand again does nothing")
  func startsSampling() {
    var state = SamplingDemandState()
    #expect(state.sent == .sample)
    #expect(!state.isStale)
    #expect(state.update(Self.subscribed).isEmpty)
  }

  @Test(
    "When nothing needs samples, sampling stops once the idle delay has run out, and the state goes stale")
  func stopsAfterTheIdleDelay() {
    var state = SamplingDemandState()
    #expect(state.update(Self.idle) == [.armIdleDelay(.seconds(5))])
    #expect(state.sent == .sample, "still sampling during the delay")
    #expect(!state.isStale)
    #expect(state.update(Self.idle).isEmpty, "the delay is armed once")
    #expect(state.idleDelayExpired(Self.idle) == [.send(.idle), .holdStaleState])
    #expect(state.sent == .idle)
    #expect(state.isStale)
    #expect(state.update(Self.idle).isEmpty)
    #expect(state.idleDelayExpired(Self.idle).isEmpty, "a delay already over does nothing")
  }

  @Test("A need that comes back within the idle delay cancels it: the sensor is never stopped")
  func needWithinTheDelayKeepsSampling() {
    var state = SamplingDemandState()
    // A client flipping its subscription as fast as it can.
    for _ in 0..<1000 {
      let stopping = state.update(Self.idle)
      let staying = state.update(Self.subscribed)
      #expect(stopping == [.armIdleDelay(.seconds(5))])
      #expect(staying == [.cancelIdleDelay])
    }
    #expect(state.sent == .sample)
    #expect(state.idleDelayExpired(Self.subscribed).isEmpty, "a cancelled delay stops nothing")
  }

  @Test("An idle delay that runs out while something needs samples again stops nothing")
  func expiryChecksTheNeedsAgain() {
    var state = SamplingDemandState()
    _ = state.update(Self.idle)
    #expect(state.idleDelayExpired(Self.subscribed).isEmpty)
    #expect(state.sent == .sample)
    #expect(state.update(Self.idle) == [.armIdleDelay(.seconds(5))], "a new idle stretch starts a new delay")
  }

  @Test("Resuming after a stale stretch is at once, and waits a second at most for the first sample")
  func resumesAndServesTheFreshState() {
    var state = Self.stopped()
    #expect(state.update(Self.subscribed) == [.send(.sample), .awaitFreshSample(within: .seconds(1))])
    #expect(state.isStale, "the state is stale until a sample comes")
    #expect(state.freshSampleArrived() == [.cancelFreshWait, .serveFreshState])
    #expect(!state.isStale)
    #expect(state.freshWaitExpired().isEmpty, "a wait already over does nothing")
    #expect(state.freshSampleArrived().isEmpty, "a second fresh sample serves nobody again")
  }

  @Test("A sensor that does not deliver within the wait gets the last known state served, with a warning")
  func freshWaitExpires() {
    var state = Self.stopped()
    _ = state.update(Self.subscribed)
    #expect(state.freshWaitExpired() == [.warnNoFreshSample, .serveFreshState])
    #expect(!state.isStale)
    #expect(state.freshSampleArrived().isEmpty)
  }

  @Test("Stopping again while waiting for a fresh sample cancels the wait and keeps the state stale")
  func stopsWhileWaiting() {
    var state = Self.stopped()
    _ = state.update(Self.subscribed)
    #expect(state.update(Self.idle) == [.armIdleDelay(.seconds(5))])
    #expect(state.idleDelayExpired(Self.idle) == [.send(.idle), .holdStaleState, .cancelFreshWait])
    #expect(state.isStale)
    #expect(state.freshWaitExpired().isEmpty, "a cancelled wait cannot expire")
    #expect(state.freshSampleArrived().isEmpty, "a late sample while idle serves nobody")
  }

  @Test("Resuming before sampling ever stopped waits for nothing")
  func resumingFreshStateNeedsNoWait() {
    var state = SamplingDemandState()
    #expect(state.freshSampleArrived().isEmpty)
    #expect(state.freshWaitExpired().isEmpty)
    #expect(state.update(Self.subscribed).isEmpty)
  }
}
