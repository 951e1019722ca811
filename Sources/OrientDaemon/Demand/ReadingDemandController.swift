import OrientCore
import OrientSystem

/// Which reading sensors are read, on the main loop: the shell around `ReadingDemand`. It
/// tells the sampling thread which sensors to read when what needs them changes (stopping one
/// only after its linger), and says when one stops, so that its value is no longer shown as
/// current.
final class ReadingDemandController {
  private let loop: EventLoop
  private var state = ReadingDemand()
  private var lingers: [SensorKind: LoopTimer] = [:]
  /// The sampling thread, once it runs.
  var sampler: (any SamplerLink)?
  /// What needs the reading sensors now; asked at every update.
  var needed: () -> Set<SensorKind> = { [] }
  /// A sensor stopped being read.
  var stopped: (SensorKind) -> Void = { _ in }

  init(loop: EventLoop) { self.loop = loop }

  /// The sensors being read (lingering ones included).
  var running: Set<SensorKind> { state.running }

  /// What needs the sensors may have changed: tells the sampling thread if what it reads does.
  func update() { perform(state.update(needed())) }

  private func perform(_ actions: [ReadingDemand.Action]) {
    var changed = false
    for action in actions {
      switch action {
      case .start:
        changed = true
      case .stop(let kind):
        changed = true
        stopped(kind)
      case .armLinger(let kind, let delay):
        let timer = LoopTimer(loop: loop) { [unowned self] _ in
          self.perform(self.state.lingerExpired(kind, needed: self.needed()))
        }
        timer.schedule(after: delay)
        lingers[kind] = timer
      case .cancelLinger(let kind):
        lingers[kind] = nil
      }
    }
    if changed { sampler?.send(.readingNeeds(state.running)) }
  }
}
