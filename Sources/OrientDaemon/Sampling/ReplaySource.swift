import OrientCore
import OrientSystem

/// Plays trace samples in real time on a one-shot timer, optionally looping.
///
/// The timer is re-armed for the next sample's time, so replay wakes once per
/// sample and never more. When each sample is due comes from a `ReplaySchedule`, which
/// saturates instead of overflowing on the times a file may hold and bounds every wait.
public final class ReplaySource {
  private let samples: [TraceSample]
  private let loopLengthMicroseconds: Int64?
  private let deliver: (Sample) -> Void
  private let finished: () -> Void
  private var timer: LoopTimer?
  private var next = 0
  private var pass: Int64 = 0
  private var schedule: ReplaySchedule?

  /// Prepares a replay. With `loopLengthMicroseconds`, it restarts after that long,
  /// and later passes' times run on from the first pass.
  public init(
    samples: [TraceSample], loopLengthMicroseconds: Int64? = nil,
    deliver: @escaping (Sample) -> Void, finished: @escaping () -> Void = {}
  ) {
    self.samples = samples
    self.loopLengthMicroseconds = loopLengthMicroseconds
    self.deliver = deliver
    self.finished = finished
  }

  /// Starts playing: the first sample at once, the others at their offsets from it.
  public func start(loop: EventLoop) {
    guard let first = samples.first else {
      finished()
      return
    }
    schedule = ReplaySchedule(
      startNanoseconds: Clock.monotonicNanoseconds, firstTime: first.time,
      loopLengthMicroseconds: loopLengthMicroseconds)
    timer = LoopTimer(loop: loop) { [unowned self] _ in self.playDue() }
    playDue()
  }

  private func playDue() {
    guard let schedule else { return }
    while true {
      if next == samples.count {
        guard loopLengthMicroseconds != nil else {
          timer = nil
          finished()
          return
        }
        next = 0
        pass += 1
      }
      let sample = samples[next]
      let due = schedule.dueNanoseconds(of: sample.time, pass: pass)
      if let wait = ReplaySchedule.wait(until: due, now: Clock.monotonicNanoseconds) {
        timer?.schedule(afterNanoseconds: wait)
        return
      }
      next += 1
      var shifted = sample
      shifted.time = sample.time.advanced(byMicroseconds: schedule.passOffsetMicroseconds(pass: pass))
      deliver(Sample(shifted))
    }
  }
}
