import OrientCore
import OrientSystem

/// Plays trace samples in real time on a one-shot timer, optionally looping.
///
/// The timer is re-armed for the next sample's time, so replay wakes once per
/// sample and never more. When each sample is due comes from a `ReplaySchedule`, which
/// saturates instead of overflowing on the times a file may hold and bounds every wait.
final class ReplaySource {
  private let samples: [TraceSample]
  private let loopLength: Duration?
  /// Takes each sample as it is played.
  private let sink: (Sample) -> Void
  private let finished: () -> Void
  private var timer: LoopTimer?
  private var next = 0
  private var pass: Int64 = 0
  private var schedule: ReplaySchedule?
  /// When the first sample was played.
  private var start = MonotonicInstant.now

  /// Prepares a replay into `sink`, calling `finished` at its end. With `loopLength`, it
  /// restarts after that long, and later passes' times run on from the first pass.
  init(
    samples: [TraceSample], loopLength: Duration? = nil,
    sink: @escaping (Sample) -> Void, finished: @escaping () -> Void = {}
  ) {
    self.samples = samples
    self.loopLength = loopLength
    self.sink = sink
    self.finished = finished
  }

  /// Starts playing: the first sample at once, the others at their offsets from it.
  func start(loop: EventLoop) {
    guard let first = samples.first else {
      finished()
      return
    }
    start = .now
    schedule = ReplaySchedule(firstTime: first.time, loopLength: loopLength)
    timer = LoopTimer(loop: loop) { [unowned self] _ in self.playDue() }
    playDue()
  }

  private func playDue() {
    guard let schedule else { return }
    while true {
      if next == samples.count {
        guard loopLength != nil else {
          timer = nil
          finished()
          return
        }
        next = 0
        pass += 1
      }
      let sample = samples[next]
      let due = schedule.due(sample.time, pass: pass)
      if let wait = ReplaySchedule.wait(until: due, elapsed: start.elapsed) {
        timer?.schedule(after: wait)
        return
      }
      next += 1
      var shifted = sample
      shifted.time = sample.time + schedule.passOffset(pass: pass)
      sink(Sample(shifted))
    }
  }
}
