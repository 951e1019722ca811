import OrientCore
import OrientSystem

/// The sampling demand on the main loop: the shell around `SamplingDemandState`. It tells the
/// sampling thread when what needs samples changes (stopping it only after the idle delay),
/// holds the state clients see as stale while the sensor rests, and serves the clients that
/// waited once a fresh sample is in (or a second has passed without one). Clients can make
/// these things happen, so the lines they log go through a budget.
final class SamplingDemandController {
  private let loop: EventLoop
  private var state = SamplingDemandState()
  /// Gives up waiting for a fresh sample after resuming.
  private var freshWait: LoopTimer?
  /// Stops sampling once nothing has needed it for a while.
  private var idleDelay: LoopTimer?
  /// Clients can make sampling stop and resume: what that logs is limited.
  private var lines = LineBudget(perWindow: 4, window: .seconds(60))
  /// The sampling thread, once it runs.
  var sampler: (any SamplerLink)?
  /// The socket's clients, which wait for a fresh state while it is stale.
  var server: SocketServer?
  /// What needs samples now; asked at every update.
  var needs: () -> SamplingNeeds = { SamplingNeeds() }
  /// The mode and its source, for the line that says why sampling stops.
  var modeSummary: () -> String = { "" }

  /// A controller on `loop`; sampling starts with the sensor read.
  init(loop: EventLoop) { self.loop = loop }

  /// The demand last sent to the sampling thread.
  var sent: SamplingDemand { state.sent }

  /// Something that needs samples may have changed: tells the sampling thread if the demand did.
  func update() { perform(state.update(needs())) }

  /// The first sample after an idle stretch has been classified: the state is current.
  func freshSampleArrived() { perform(state.freshSampleArrived()) }

  private func perform(_ actions: [SamplingDemandState.Action]) {
    for action in actions {
      switch action {
      case .send(let demand):
        // Said before it is sent: the sampling thread may put the sensor's rate back at once.
        if demand == .idle {
          lines.write(.info, lines: ["nothing needs the sensor now (\(modeSummary())); sampling stops"])
        }
        sampler?.send(.demand(demand))
      case .armIdleDelay(let delay):
        let timer = LoopTimer(loop: loop) { [unowned self] _ in
          self.perform(self.state.idleDelayExpired(self.needs()))
        }
        timer.schedule(after: delay)
        idleDelay = timer
      case .cancelIdleDelay:
        idleDelay = nil
      case .holdStaleState:
        server?.holdsStaleState = true
      case .awaitFreshSample(let within):
        lines.write(.info, lines: ["sampling resumes"])
        // A sensor that does not deliver in time must not keep clients waiting.
        let timer = LoopTimer(loop: loop) { [unowned self] _ in self.perform(self.state.freshWaitExpired()) }
        timer.schedule(after: within)
        freshWait = timer
      case .cancelFreshWait:
        freshWait = nil
      case .warnNoFreshSample:
        lines.write(
          .warning,
          lines: [
            "no fresh sample within \(SamplingDemandState.freshWait.wholeSeconds) s of resuming; "
              + "serving the last known state"
          ])
      case .serveFreshState:
        server?.holdsStaleState = false
        server?.stateIsFresh()
        // The clients served may need nothing more.
        update()
      }
    }
  }
}
