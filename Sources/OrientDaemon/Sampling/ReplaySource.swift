import OrientCore
import OrientSystem

/// Plays trace samples in real time on a one-shot timer, optionally looping.
///
/// The timer is re-armed for the next sample's time, so replay wakes once per
/// sample and never more.
public final class ReplaySource {
  private let samples: [TraceSample]
  private let loopLengthMicroseconds: Int64?
  private let deliver: (Sample) -> Void
  private let finished: () -> Void
  private var timer: LoopTimer?
  private var next = 0
  private var pass: Int64 = 0
  private var startNanoseconds: UInt64 = 0
  private var firstMicroseconds: Int64 = 0

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
    firstMicroseconds = first.time.microseconds
    startNanoseconds = Clock.monotonicNanoseconds
    timer = LoopTimer(loop: loop) { [unowned self] _ in self.playDue() }
    playDue()
  }

  private func playDue() {
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
      let passOffset = pass * (loopLengthMicroseconds ?? 0)
      let offset = sample.time.microseconds - firstMicroseconds + passOffset
      let due = startNanoseconds + UInt64(offset) * 1000
      let now = Clock.monotonicNanoseconds
      guard due <= now else {
        timer?.schedule(afterNanoseconds: due - now)
        return
      }
      next += 1
      var shifted = sample
      shifted.time = sample.time.advanced(byMicroseconds: passOffset)
      deliver(Sample(shifted))
    }
  }
}
